#!/usr/bin/env node
/**
 * `npm run bench`: measures and prints the figures of DESIGN §12 that exist so far. Never asserts: absolute
 * times vary by machine. Runs under npm so node_modules/.bin (Node 22, wrangler) comes first on PATH.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { fireBench } from "./fire.mjs";

const out = ".bench";
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", env: process.env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

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
run("wrangler", ["deploy", "--dry-run", "--minify", "--outdir", dist]);
let raw = 0;
let gzipped = 0;
for (const file of readdirSync(dist)) {
  if (!/\.(m?js|wasm)$/.test(file)) continue;
  const bytes = readFileSync(join(dist, file));
  raw += statSync(join(dist, file)).size;
  gzipped += gzipSync(bytes, { level: 9 }).length;
}
console.log(`  minified: ${(raw / 1024).toFixed(1)} KiB, gzipped: ${(gzipped / 1024).toFixed(1)} KiB`);

// 3. Start-up time, from the CPU profile `wrangler check startup` records.
section("startup");
const profile = join(out, "startup.cpuprofile");
const times = [];
for (let i = 0; i < 3; i++) {
  run("wrangler", ["check", "startup", "--outfile", profile]);
  const p = JSON.parse(readFileSync(profile, "utf8"));
  times.push((p.endTime - p.startTime) / 1000);
}
times.sort((a, b) => a - b);
console.log(`  wrangler check startup: ${times[1].toFixed(1)} ms (median of 3; target ≤ 25 ms)`);

// 4. Firing against the real Durable Object under `wrangler dev`, with the bare-alarm baseline (bench/fire.mjs).
section("firing (wrangler dev, local workerd)");
await fireBench({ out: resolve(out) });
