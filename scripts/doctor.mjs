#!/usr/bin/env node
/**
 * `npm run doctor [url]` (docs/doctor.md): checks a running Cuckoo part by part, one line each, from the outside. The
 * address: the argument, else CUCKOO_URL, else http://localhost:8787 (`npm run dev`). ADMIN_TOKEN from the
 * environment (else the one `npm run deploy` keeps for the Worker it deployed), TELEGRAM_BOT_TOKEN when given (and
 * TELEGRAM_API_BASE). Exit status 1 when a configured part does not answer as it should; a part that is off is not a
 * failure. Never prints a token.
 */
import { adminTokenFor, doctorUrl, runDoctor } from "./lib/doctor.mjs";

const url = doctorUrl(process.argv.slice(2), process.env);
process.exitCode = await runDoctor({
  url,
  adminToken: adminTokenFor(url, process.env),
  botToken: process.env.TELEGRAM_BOT_TOKEN?.trim() || null,
  apiBase: process.env.TELEGRAM_API_BASE?.trim() || "https://api.telegram.org",
});
