/**
 * Vitest globalSetup of the e2e tier (docs/operations.md#checks), as workers-sdk builds once in global setup: one
 * D1 migration that every `wrangler dev` of the tier copies (`migratedState`), and the servers the files share,
 * started in the background so that the other tiers run meanwhile: a runner (`sharedRunner()`) and a Worker in
 * open dev mode wired to it as `npm run dev` wires them (`sharedWorker("dev")`), and a Worker with a bot whose
 * Bot API is a local stub (`sharedWorker("telegram")`, test/e2e/telegram-chat.ts), for the files whose vars
 * are these (each with chats of its own). A file that needs other vars, or crashes its Worker, starts its own.
 * All listen on 127.0.0.1 and are stopped after the run, and on Ctrl-C or exit by the harness's handlers; their
 * output goes to files in a temporary directory, which a failing test shows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startTelegramStub } from "../stub/telegram-stub.js";
import { atExit, migrateState, startShared } from "./harness.js";
import { startRunner } from "./runner.js";
import { BOT_TOKEN, TELEGRAM_CHATS, WEBHOOK_SECRET } from "./telegram-chat.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const logs = mkdtempSync(path.join(tmpdir(), "cuckoo-e2e-logs-"));
  atExit(() => rmSync(logs, { recursive: true, force: true }));
  const state = migrateState();
  project.provide("migratedState", state.dir);
  const runnerLog = path.join(logs, "runner.log");
  const runner = await startRunner({ logFile: runnerLog });
  project.provide("sharedRunner", { url: runner.url, secret: runner.secret, logFile: runnerLog });
  const devLog = path.join(logs, "dev.log");
  const dev = startShared({
    from: state.dir,
    logFile: devLog,
    vars: (base) => ({ RUNNER_URL: runner.url, RUNNER_SECRET: runner.secret, PUBLIC_URL: base, EMAIL_DOMAIN: "hooks.example.com" }),
  });
  const stub = await startTelegramStub();
  project.provide("telegramStub", stub.url);
  const telegramLog = path.join(logs, "telegram.log");
  const telegram = startShared({
    from: state.dir,
    logFile: telegramLog,
    vars: {
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_WEBHOOK_SECRET: WEBHOOK_SECRET,
      TELEGRAM_API_BASE: stub.url,
      ALLOWED_USER_IDS: Object.values(TELEGRAM_CHATS).join(","),
    },
  });
  project.provide("sharedWorkers", { dev: { logFile: devLog }, telegram: { logFile: telegramLog } });
  return async () => {
    await Promise.all([dev.then((w) => w?.stop()), telegram.then((w) => w?.stop()), runner.stop(), stub.close(), state.done]);
    state.dispose();
    rmSync(logs, { recursive: true, force: true });
  };
}
