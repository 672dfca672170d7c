/**
 * Vitest globalSetup of the worker tier: starts the fake runner (test/stub/runner-stub.ts) in Node and hands
 * its URL to the tests, which read it with `inject("runnerStub")`.
 */
import type { TestProject } from "vitest/node";
import { startRunnerStub } from "./runner-stub";

declare module "vitest" {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the fake runner. */
    runnerStub: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stub = await startRunnerStub();
  project.provide("runnerStub", stub.url);
  return () => stub.close();
}
