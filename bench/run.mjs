#!/usr/bin/env node
/**
 * `npm run bench`: measures and prints the figures of DESIGN §12 that exist so far. Never asserts: absolute
 * times vary by machine. Runs under npm so node_modules/.bin (Node 22, wrangler) comes first on PATH.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { bundleFireWorker, fireBench } from "./fire.mjs";
import { watcherBench } from "./watchers.mjs";

const out = ".bench";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", env: process.env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

// With [[containers]] in wrangler.toml, deploy --dry-run (and check startup, which runs it) builds the image
// with Docker; the bench measures the Worker only, and needs no Docker.
const NO_CONTAINER_BUILD = ["--containers-rollout=none"];

function section(title) {
  console.log(`\n== ${title}`);
}

// 1. The time engine against cron-parser.
section("time engine");
await build({ entryPoints: ["bench/time.bench.ts"], bundle: true, platform: "node", format: "esm", outfile: join(out, "time.bench.mjs"), logLevel: "error" });
process.stdout.write(run(process.execPath, [join(out, "time.bench.mjs")]));

// 2. Bundle size, minified and gzipped, as deployed.
section("bundle");
const dist = join(out, "dist");
run("wrangler", ["deploy", "--dry-run", "--minify", "--outdir", dist, ...NO_CONTAINER_BUILD]);
let raw = 0;
let gzipped = 0;
for (const file of readdirSync(dist)) {
  if (!/\.(m?js|wasm)$/.test(file)) continue;
  const bytes = readFileSync(join(dist, file));
  raw += statSync(join(dist, file)).size;
  gzipped += gzipSync(bytes, { level: 9 }).length;
}
console.log(`  minified: ${(raw / 1024).toFixed(1)} KiB, gzipped: ${(gzipped / 1024).toFixed(1)} KiB`);

// 3. Start-up time, from the CPU profile `wrangler check startup` records. The profile also holds the
//    runtime's own start (its JS glue, compiling, idle gaps), so an empty Worker with the same bindings is
//    measured the same way and the difference is ours.
section("startup");
writeFileSync(
  join(out, "empty-worker.mjs"),
  'import { DurableObject } from "cloudflare:workers";\nexport class ChatScheduler extends DurableObject {}\nexport class RunnerContainer extends DurableObject {}\n' +
    "export default { fetch() { return new Response(\"\"); }, queue() {} };\n",
);
const emptyConfig = join(out, "wrangler.empty.toml");
writeFileSync(
  emptyConfig,
  readFileSync("wrangler.toml", "utf8")
    .replace(/^main = .*$/m, `main = "empty-worker.mjs"`)
    .replace(/^migrations_dir = .*$/m, "")
    // No container here: the empty Worker has no container class, and image paths are relative to the root.
    .replace(/^\[\[containers\]\][\s\S]*?(?=^\[|(?![\s\S]))/gm, "")
    // Nor the page: its assets are not part of the Worker, and their directory is relative to the root too.
    .replace(/^\[assets\][\s\S]*?(?=^\[|(?![\s\S]))/gm, ""),
);

/**
 * Median over 3 profiles of the busy time (every non-idle sample) and of the whole profiled span. The build
 * arguments go through `--args`: `check startup` builds with `deploy --dry-run`, and a `--config` of its own
 * does not reach that build (the empty Worker would silently be ours again).
 */
function startup(buildArgs) {
  const busy = [];
  const span = [];
  for (let i = 0; i < 3; i++) {
    const profile = join(out, "startup.cpuprofile");
    run("wrangler", ["check", "startup", "--outfile", profile, `--args=${[...NO_CONTAINER_BUILD, ...buildArgs].join(" ")}`]);
    const p = JSON.parse(readFileSync(profile, "utf8"));
    const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    busy.push(p.samples.reduce((sum, id, k) => sum + (idle.has(id) ? 0 : (p.timeDeltas[k] ?? 0)), 0) / 1000);
    span.push((p.endTime - p.startTime) / 1000);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[1];
  return { busy: median(busy), span: median(span) };
}
const ours = startup([]);
const empty = startup(["--config", emptyConfig]);
if (empty.busy > ours.busy / 2) console.log("  warning: the empty Worker's profile is as busy as ours: was our Worker built for both?");
console.log(`  wrangler check startup, busy CPU (median of 3): ours ${ours.busy.toFixed(1)} ms, an empty Worker ${empty.busy.toFixed(1)} ms, difference ${(ours.busy - empty.busy).toFixed(1)} ms (target ≤ 25 ms)`);
console.log(`  whole profiled span: ours ${ours.span.toFixed(1)} ms, empty ${empty.span.toFixed(1)} ms (it includes the runtime's idle gaps)`);

// 4. Firing against the real Durable Object under `wrangler dev`, with the bare-alarm baseline (bench/fire.mjs).
section("firing (wrangler dev, local workerd)");
// One bundle of bench/fire-worker.ts for both, served with --no-bundle: edits to src/ during a run cannot reload it.
const fireDist = bundleFireWorker(resolve(out));
await fireBench({ out: resolve(out), dist: fireDist });

// 5. Watchers against the real runner: its overhead for a trivial script, and a silent tick's cost through the
//    Worker, served from the same bundle (bench/watchers.mjs).
section("watchers (the real runner; wrangler dev, local workerd)");
await watcherBench({ out: resolve(out), dist: fireDist });
