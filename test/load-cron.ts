/**
 * Setup for the unit project: the pure code under test calls `parseCron` directly, which needs cron-parser
 * loaded first (src/time/cron.ts loads it on first need, at the async entries the Worker has). Loading it
 * here is the test's stand-in for those entries; test/unit/time-load.test.ts checks the lazy loading itself.
 */
import { loadCron } from "../src/time";

await loadCron();
