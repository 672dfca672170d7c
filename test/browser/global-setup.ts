/**
 * Vitest globalSetup of the browser tier (docs/operations.md#checks): one Chromium for every file (each in a context
 * of its own, `launch()`), one D1 migration that every `wrangler dev` of the tier copies (`migratedState`), and
 * the Worker with ADMIN_TOKEN that the files with a signed-in page share (`sharedWorker("admin")`), started in
 * the background while the other tiers run. A file whose page needs other vars (open dev mode, a bot) starts its
 * own. All listen on 127.0.0.1 and are stopped after the run, and on Ctrl-C or exit.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { atExit, migrateState, startShared } from "../e2e/harness.js";
import { ADMIN_TOKEN, CHROMIUM_OPTIONS, findChromium } from "./browser.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const logs = mkdtempSync(path.join(tmpdir(), "cuckoo-browser-logs-"));
  atExit(() => rmSync(logs, { recursive: true, force: true }));
  const state = migrateState();
  project.provide("migratedState", state.dir);
  const adminLog = path.join(logs, "admin.log");
  const admin = startShared({ from: state.dir, logFile: adminLog, vars: { ADMIN_TOKEN } });
  project.provide("sharedWorkers", { admin: { logFile: adminLog } });
  // Without Chromium on PATH the browser tests fail with the sentence that says how to install it; the run goes on.
  const server = await (async () => chromium.launchServer({ ...CHROMIUM_OPTIONS, executablePath: findChromium(), host: "127.0.0.1" }))().catch(
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
  project.provide("chromium", "error" in server ? server : { endpoint: server.wsEndpoint() });
  return async () => {
    await Promise.all(["error" in server ? null : server.close(), admin.then((worker) => worker?.stop()), state.done]);
    state.dispose();
    rmSync(logs, { recursive: true, force: true });
  };
}
