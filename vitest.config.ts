/**
 * One `vitest run` for every suite (docs/operations.md#checks): `unit` runs the pure core in plain Node; `worker` runs the
 * Worker and its Durable Object in workerd through @cloudflare/vitest-plugin, with the bindings of
 * wrangler.toml and the D1 migrations applied by a setup file; `e2e` runs the real Worker under `wrangler dev`.
 * `browser` drives the page in Chromium against `wrangler dev`.
 */
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations(fileURLToPath(new URL("./migrations", import.meta.url)));

/**
 * Vite's warnings without one: published packages (@cloudflare/containers, the MCP SDK) ship source maps that
 * name sources they leave out, and vite says so for every such file it loads. Nothing here can act on it, and a
 * green run should print nothing a reader must wonder about. (vitest replaces `customLogger`, so the resolved
 * logger is patched.)
 */
const quietSourcemaps: Plugin = {
  name: "cuckoo:quiet-missing-sourcemaps",
  configResolved(config) {
    const warnOnce = config.logger.warnOnce.bind(config.logger);
    config.logger.warnOnce = (message, options) => {
      if (!/^Sourcemap for ".*node_modules.*" points to missing source files$/.test(message)) warnOnce(message, options);
    };
  },
};

/**
 * One line of workerd's kept out of the run's output: "NOSENTRY SQLite alarm overdue, running despite
 * AlarmManager mismatch", its note that an alarm ran a few milliseconds off the time its alarm manager held
 * (an object that set its alarm again while the old one was being delivered). workerd runs the alarm all the
 * same; the note says nothing about Cuckoo, and the plugin prints workerd's lines straight to this process's
 * stderr, with no option to filter them, so the filter is here, for that one line only.
 */
const writeStderr = process.stderr.write.bind(process.stderr) as (chunk: unknown, ...rest: unknown[]) => boolean;
process.stderr.write = ((chunk: unknown, ...rest: unknown[]) =>
  typeof chunk === "string" && chunk.startsWith("NOSENTRY SQLite alarm overdue") ? true : writeStderr(chunk, ...rest)) as typeof process.stderr.write;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["test/unit/**/*.test.ts"],
        },
      },
      {
        test: {
          // The runner package (runner/), against real /bin/sh processes and real HTTP on 127.0.0.1.
          name: "runner",
          environment: "node",
          include: ["runner/test/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          quietSourcemaps,
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // Local tests run as `npm run dev` does; tests of deployed mode pass a modified env to the app.
              bindings: { CUCKOO_DEV: "1", CUCKOO_TEST_CLOCK: "1", TEST_MIGRATIONS: migrations },
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["./test/worker/apply-migrations.ts"],
          // A local Telegram Bot API stub and a fake runner in Node; the tests read their URLs with
          // inject("telegramStub") and inject("runnerStub").
          globalSetup: ["./test/stub/global-setup.ts"],
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          // One D1 migration and the servers the files share (test/e2e/global-setup.ts); a file that needs other
          // vars starts its own `wrangler dev` (test/e2e/harness.ts) in its child process (forks), so that the
          // harness's signal handlers can stop wrangler's process group on Ctrl-C. One file at a time.
          globalSetup: ["./test/e2e/global-setup.ts"],
          pool: "forks",
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The page in Debian's Chromium (playwright-core) against `wrangler dev` started by the e2e harness:
          // one Chromium and the Worker the signed-in files share from test/browser/global-setup.ts; like e2e,
          // one file at a time in a child process.
          name: "browser",
          environment: "node",
          include: ["test/browser/**/*.test.ts"],
          globalSetup: ["./test/browser/global-setup.ts"],
          pool: "forks",
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
