/**
 * One `vitest run` for every suite (docs/operations.md#checks): `unit` runs the pure core in plain Node; `worker` runs the
 * Worker and its Durable Object in workerd through @cloudflare/vitest-plugin, with the bindings of
 * wrangler.toml and the D1 migrations applied by a setup file; `e2e` runs the real Worker under `wrangler dev`.
 * `browser` drives the page in Chromium against `wrangler dev`. The tiers run side by side, a few files at a
 * time (`MAX_FILES`, `Interleaved`): the e2e and browser files mostly wait on processes while the others compute.
 */
import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

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

/**
 * How many files run at once, across the tiers. One number for all: vitest runs projects whose limits differ one
 * after another (which is why the e2e and browser tiers, once one file at a time, ran after all the rest).
 */
const MAX_FILES = 3;

/** The tiers whose files mostly wait on processes (`wrangler dev`, the runner, Chromium). */
const WAITING = new Set(["e2e", "browser"]);

/**
 * The order files start in: the e2e fault file first (the longest, mostly waiting), then the worker files
 * together (a worker file hands its workerd to the next one only when that one is next in line), then the
 * other files of the waiting tiers interleaved with the unit and runner files, so that while some wait others
 * compute. Within each, vitest's own order (longest known first, else largest).
 */
class Interleaved extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = sorted.filter((f) => f.moduleId.endsWith("test/e2e/faults.test.ts"));
    const worker = sorted.filter((f) => f.project.name === "worker");
    const waiting = sorted.filter((f) => WAITING.has(f.project.name) && !first.includes(f));
    const busy = sorted.filter((f) => !WAITING.has(f.project.name) && f.project.name !== "worker");
    const mixed = Array.from({ length: Math.max(waiting.length, busy.length) }, (_, i) => [waiting[i], busy[i]]).flat();
    return [...first, ...worker, ...mixed.filter((f): f is TestSpecification => f !== undefined)];
  }
}

export default defineConfig({
  test: {
    maxWorkers: MAX_FILES,
    sequence: { sequencer: Interleaved },
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["test/unit/**/*.test.ts"],
          // The property tests and the 10,000-line split take about a second alone, several times that while
          // the other tiers share the cores: the timeout is there to catch a hang, not to time them.
          testTimeout: 30_000,
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
            // The real Worker, its chat object's class the tests' subclass (a clock they move, a few test-only RPCs).
            main: "./test/worker/entry.ts",
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // Local tests run as `npm run dev` does; tests of deployed mode pass a modified env to the app.
              bindings: { CUCKOO_DEV: "1", TEST_MIGRATIONS: migrations },
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // The files share their workerd, one file at a time in each (a fresh one per file costs about 3 s of
          // CPU): each uses chat ids of its own range, so none sees another's state.
          isolate: false,
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
          // harness's signal handlers can stop wrangler's process group on Ctrl-C.
          globalSetup: ["./test/e2e/global-setup.ts"],
          pool: "forks",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // The page in Debian's Chromium (playwright-core) against `wrangler dev` started by the e2e harness:
          // one Chromium and the Worker the signed-in files share from test/browser/global-setup.ts.
          name: "browser",
          environment: "node",
          include: ["test/browser/**/*.test.ts"],
          globalSetup: ["./test/browser/global-setup.ts"],
          pool: "forks",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // What the page shows after a request (a preview, a list) comes within a second alone; while the tiers
          // share the cores it may take several. The bound is for a page that never shows it.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
