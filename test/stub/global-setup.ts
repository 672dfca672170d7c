/**
 * Vitest globalSetup of the worker tier: starts the local stubs in Node before the workers start and hands
 * their URLs to the tests, which read them with `inject("telegramStub")` (the Telegram Bot API stub,
 * test/stub/telegram-stub.ts), `inject("runnerStub")` (the fake runner, test/stub/runner-stub.ts) and
 * `inject("modelStub")` (the fake model, test/stub/model-stub.ts).
 */
import type { TestProject } from "vitest/node";
import { startModelStub } from "./model-stub";
import { startRunnerStub } from "./runner-stub";
import { startTelegramStub } from "./telegram-stub";

declare module "vitest" {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the Bot API stub. */
    telegramStub: string;
    /** `http://127.0.0.1:<port>` of the fake runner. */
    runnerStub: string;
    /** `http://127.0.0.1:<port>` of the fake OpenAI-compatible model (LLM_BASE_URL is this + `/v1`). */
    modelStub: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [telegram, runner, model] = await Promise.all([startTelegramStub(), startRunnerStub(), startModelStub()]);
  project.provide("telegramStub", telegram.url);
  project.provide("runnerStub", runner.url);
  project.provide("modelStub", model.url);
  return async () => {
    await Promise.all([telegram.close(), runner.close(), model.close()]);
  };
}
