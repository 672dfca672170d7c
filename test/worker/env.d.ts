/** The test-only binding vitest.config.ts adds: the D1 migrations, read in Node, applied in the setup file. */
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}

/** Fixture files read as text (Vite's `?raw`), such as test/fixtures/commitments.jsonl. */
declare module "*?raw" {
  const text: string;
  export default text;
}
