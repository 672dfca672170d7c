/**
 * Vitest globalSetup of the worker tier: starts the Telegram Bot API stub (test/stub/telegram-stub.ts) in Node
 * before the workers start and hands its URL to the tests, which read it with `inject("telegramStub")`.
 */
import type { TestProject } from "vitest/node";
import { startTelegramStub } from "./telegram-stub";

declare module "vitest" {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the Bot API stub. */
    telegramStub: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stub = await startTelegramStub();
  project.provide("telegramStub", stub.url);
  return () => stub.close();
}
