/**
 * Setup for the worker tier: applies the D1 migrations (read in Node by vitest.config.ts) to the local `DB`.
 * Setup files may run more than once; applyD1Migrations skips migrations already applied.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
