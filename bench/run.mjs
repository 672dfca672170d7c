#!/usr/bin/env node
/**
 * `npm run bench`: measures and prints the figures of docs/operations.md and issues 13 and 17. Never asserts: absolute
 * times vary by machine, so every figure has its baseline from the same run beside it (an empty Worker, a bare
 * Durable Object, an acking consumer) and the method it was measured by. Runs under npm so node_modules/.bin
 * (Node 22, wrangler) comes first on PATH. The summary at the end repeats issue 17's table.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { agentBench } from "./agent.mjs";
import { fireBench } from "./fire.mjs";
import { bundleFireWorker, fmt } from "./harness.mjs";
import { hookBench } from "./hooks.mjs";
import { languageBench } from "./languages.mjs";
import { reminderBench } from "./reminders.mjs";
import { startupBench } from "./startup.mjs";
import { watcherBench } from "./watchers.mjs";

const out = ".bench";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", env: process.env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function section(title) {
  console.log(
    `\n== ${title} (load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")})`,
  );
}

// 1. The time engine against cron-parser.
section("time engine");
await build({ entryPoints: ["bench/time.bench.ts"], bundle: true, platform: "node", format: "esm", outfile: join(out, "time.bench.mjs"), logLevel: "error" });
process.stdout.write(run(process.execPath, [join(out, "time.bench.mjs")]));

// 1a. A chat's calendar feed of 50 jobs: the time to build it and its size (bench/calendar.bench.ts).
section("calendar feed");
await build({
  entryPoints: ["bench/calendar.bench.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: join(out, "calendar.bench.mjs"),
  logLevel: "error",
});
process.stdout.write(run(process.execPath, [join(out, "calendar.bench.mjs")]));

// 1b. What a reply in English loads, and one in German: each language's tables are loaded on first use.
section("languages: what a reply loads");
await languageBench({ out: resolve(out) });

// 2. Start-up and the upload's size: ours as wrangler.toml builds it, without the MCP SDK, and an empty Worker,
//    by `wrangler check startup` and by the cold-start meter (bench/startup.mjs).
section("startup");
const startup = await startupBench({ out: resolve(out) });

// 3. Firing against the real Durable Object under `wrangler dev`, with the bare-alarm baseline (bench/fire.mjs).
section("firing (wrangler dev, local workerd)");
// One bundle of bench/fire-worker.ts for every section, served with --no-bundle: edits to src/ during a run cannot reload it.
const fireDist = bundleFireWorker(resolve(out));
const firing = await fireBench({ out: resolve(out), dist: fireDist });

// 4. Turns: one chat's echo turn, and model turns with a fake model (bench/agent.mjs).
section("turns (wrangler dev, local workerd)");
const turns = await agentBench({ out: resolve(out), dist: fireDist });

// 5. Watchers against the real runner: its overhead for a trivial script, and a silent tick's cost through the
//    Worker, served from the same bundle (bench/watchers.mjs).
section("watchers (the real runner; wrangler dev, local workerd)");
await watcherBench({ out: resolve(out), dist: fireDist });

// 6. Hooks: a hook call's latency to its queue message beside a timed fire's (bench/hooks.mjs).
section("hooks (wrangler dev, local workerd)");
await hookBench({ out: resolve(out), dist: fireDist });

// 6b. Notices ahead and nagging copies for 100 jobs in a chat: the alarms and rows they cost (bench/reminders.mjs).
section("reminders: notices and nags (wrangler dev, local workerd)");
await reminderBench({ out: resolve(out), dist: fireDist });

// 7. Issue 17's table, from the figures above.
section("summary: issue 17's table, each figure beside its baseline from this run");
const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(2)}×` : "–");
const rows = [
  [
    "1,000 chats × 10 due: last dispatched (ms)",
    firing.burst.ours,
    firing.burst.bare,
    ratio(firing.burst.ours, firing.burst.bare),
    "≤ 1.5×",
    "due instant → last sendBatch resolved; bare DO: 1,000 objects × 1 row + 1 sendBatch of 10",
  ],
  [
    "  against the floor: bare DO with claims (ms)",
    firing.burst.ours,
    firing.burst.floor,
    ratio(firing.burst.ours, firing.burst.floor),
    "",
    "the floor writes the same 3 rows per message (claim, job, dispatch mark) in plain SQL",
  ],
  [
    "same, our isolate busy (ms)",
    firing.burst.oursBusy,
    firing.burst.bareBusy,
    ratio(firing.burst.oursBusy, firing.burst.bareBusy),
    "≤ 2×",
    "V8 profile at 1 kHz: non-idle samples × interval, over each burst",
  ],
  [
    "  against the floor (ms)",
    firing.burst.oursBusy,
    firing.burst.floorBusy,
    ratio(firing.burst.oursBusy, firing.burst.floorBusy),
    "",
    "the same profile over the floor's burst",
  ],
  [
    "handler CPU per alarm, 10 due jobs, p99 (ms)",
    firing.alarmCpu?.p99,
    firing.alarmCpu?.bare,
    "—",
    "≤ 2 ms",
    `V8 profile: an alarm's samples × ${fmt(firing.alarmCpu?.interval)} µs, ${firing.alarmCpu?.alarms ?? 0} of ${firing.alarmCpu?.fired ?? "–"} alarms found; bare: 1 row + 1 message, p50`,
  ],
  [
    "  against the floor, p99 (ms)",
    firing.alarmCpu?.p99,
    firing.alarmCpu?.floor,
    ratio(firing.alarmCpu?.p99 ?? NaN, firing.alarmCpu?.floor ?? NaN),
    "",
    "the floor: 10 messages, their 30 rows in plain SQL, same profile",
  ],
  [
    "  cross-check, /proc CPU per alarm (ms)",
    firing.threadCpu?.ours,
    firing.threadCpu?.bare,
    `+${fmt((firing.threadCpu?.ours ?? NaN) - (firing.threadCpu?.bare ?? NaN), 2)}`,
    "",
    `workerd, every thread, mean of 12; bare sends the same 10 messages; the floor ${fmt(firing.threadCpu?.floor, 2)} ms`,
  ],
  [
    "SQLite rows written per one-off fire",
    firing.rows?.ours,
    firing.rows?.bare,
    ratio(firing.rows?.ours ?? NaN, firing.rows?.bare ?? NaN),
    "≤ 3",
    "sum of cursor.rowsWritten over the alarm's statements (index entries count)",
  ],
  [
    "start-up CPU, check startup (ms)",
    startup.samples.ours,
    startup.samples.empty,
    `+${fmt(startup.samples.ours - startup.samples.empty, 1)}`,
    "≤ +10 ms",
    `non-idle samples × interval, median of 7; no compile time. Without MCP +${fmt(startup.samples.noMcp - startup.samples.empty, 1)}`,
  ],
  [
    "start-up CPU, cold-start meter (ms)",
    startup.meter.ours,
    startup.meter.empty,
    `+${fmt(startup.meter.ours - startup.meter.empty, 1)}`,
    "≤ +10 ms",
    `workerd CPU per fresh Worker (Worker Loader), compile included; empty = an isolate. Without MCP +${fmt(startup.meter.noMcp - startup.meter.empty, 1)}`,
  ],
  ["echo turn in the 10,000 burst: CPU (ms)", firing.agentBurst.cpu, NaN, "—", "≤ 4.5 ms", "workerd CPU over the burst / turns (the alarms' firing included)"],
  ["  and RPC round trips per turn", firing.agentBurst.rpc, NaN, "—", "1", "counted on the consumer's chat stubs"],
  ["one chat's echo turn: CPU (ms)", turns.echo.cpu, NaN, "—", "≤ 4.5 ms", "workerd CPU, real consumer − acking consumer, per turn"],
  ["  and RPC round trips per turn", turns.echo.calls / Math.max(1, turns.echo.turns), NaN, "—", "1", "counted on the consumer's chat stubs"],
  [
    "model turn: RPC round trips",
    turns.model.calls / Math.max(1, turns.model.replies),
    NaN,
    "—",
    "≤ 2",
    "100 model turns, counted on the consumer's chat stubs",
  ],
  ...Object.entries(turns.model.rows).map(([kind, figure]) => [
    `  SQLite rows a model turn writes: ${kind.split(" (")[0]}`,
    figure.rows,
    NaN,
    "—",
    "",
    "cursor.rowsWritten over the turn's RPCs (the fire's alarm apart), fewest of 3",
  ]),
  [
    "100 chats × 1 prompt, model 500 ms: last reply (ms)",
    turns.model.delays.max,
    NaN,
    "—",
    "≤ 10,000",
    `due instant → last bot entry, locally (miniflare: one batch at a time); production estimate ≈ ${fmt(turns.production * 1000)} ms`,
  ],
];
const cell = (x, digits) => (typeof x === "number" ? fmt(x, digits) : String(x ?? "–"));
console.log(`  ${"figure".padEnd(52)}${"Cuckoo".padStart(9)}${"baseline".padStart(10)}${"ours/base".padStart(11)}   ${"target".padEnd(10)} method`);
for (const [label, ours, base, rel, target, method] of rows) {
  const digits = Math.abs(ours) < 20 ? 2 : 0;
  console.log(`  ${label.padEnd(52)}${cell(ours, digits).padStart(9)}${cell(base, digits).padStart(10)}${rel.padStart(11)}   ${target.padEnd(10)} ${method}`);
}
console.log(
  `  machine: ${os.cpus().length} CPUs shared with other work, load average ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} at the end`,
);
