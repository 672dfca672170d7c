#!/usr/bin/env node
/**
 * Start-up CPU of the Worker (docs/operations.md, issue 17), printed and never asserted, by two methods side by side,
 * each beside an empty Worker measured the same way in the same run:
 *
 * 1. `wrangler check startup` on the prebuilt upload (`--worker-bundle`): a V8 CPU profile of one request that
 *    imports the Worker. Counted as non-idle samples × the sampling interval: the sum of the samples' time
 *    deltas (the bench's figure until issue 17) gives the first sample after the idle wait a delta of 8–11 ms,
 *    so an empty Worker read 0 or ~8 ms at random. It does not see compilation: under the default (legacy)
 *    module registry workerd compiles every module before the profiler starts.
 * 2. A cold-start meter (bench/meter-worker.mjs under `wrangler dev`): fresh Workers made by a Worker Loader
 *    binding from the same modules, each importing the Worker in its first request; workerd's CPU time (every
 *    thread, /proc schedstat) around each batch, per cold start. This includes compilation and the isolate's
 *    own creation, so the empty set (an isolate and one trivial request) is the floor to subtract. The meter is
 *    restarted every round (thousands of isolates would exhaust its heap) and the variants take turns.
 *
 * `npm run bench` measures the Worker as wrangler.toml builds it, the same build without the MCP SDK (its
 * modules aliased to bench/no-mcp.js) and the empty Worker. Alone, it compares prebuilt variants:
 * `node bench/startup.mjs label=<outdir>[:flag,flag] …`, each the `--outdir` of a `wrangler deploy --dry-run`
 * with its `--outfile` upload beside it as `<outdir>.bundle`; `label=` alone is the empty set (meter only).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { freePort, HOST, root, wranglerBin, wranglerEnv } from "../scripts/lib/local.mjs";
import { fmt, Group, pct, threadsCpu, workerdProcesses } from "./harness.mjs";

/** Profiles per variant, and the meter's rounds × cold starts per variant and round. */
export const PLAN = { profiles: Number(process.env.PROFILES ?? 7), rounds: Number(process.env.ROUNDS ?? 6), perRound: Number(process.env.PER_ROUND ?? 10) };

// With [[containers]] in wrangler.toml, deploy --dry-run builds the image with Docker; start-up needs none.
const NO_CONTAINER_BUILD = ["--containers-rollout=none"];

/** The MCP SDK's modules that src/mcp/server.ts imports: aliased to a stand-in for the build without MCP. */
const MCP_MODULES = [
  "@modelcontextprotocol/sdk/server/index.js",
  "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js",
  "@modelcontextprotocol/sdk/types.js",
  "@modelcontextprotocol/sdk/validation/cfworker",
];
export const NO_MCP = MCP_MODULES.flatMap((m) => ["--alias", `${m}:./bench/no-mcp.js`]);

const median = (xs) =>
  pct(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

function wrangler(args, cwd = root) {
  const r = spawnSync(process.execPath, [wranglerBin(), ...args], { cwd, encoding: "utf8", env: wranglerEnv(), timeout: 180_000 });
  if (r.status !== 0) throw new Error(`wrangler ${args.join(" ")} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * The modules of an `--outdir` (JS and Wasm, not source maps) and their size: raw, gzipped one by one, and
 * gzipped as one stream (`stream`, wrangler's "Total Upload … gzip" figure, which an upload of several modules
 * — chrono-node's locales beside the Worker — keeps below the sum of its parts).
 */
function modulesOf(dir) {
  const modules = {};
  const all = [];
  let raw = 0;
  let gzipped = 0;
  const walk = (d) => {
    for (const f of readdirSync(d)) {
      const p = path.join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(m?js|wasm)$/.test(f)) {
        const bytes = readFileSync(p);
        raw += bytes.length;
        gzipped += gzipSync(bytes, { level: 9 }).length;
        all.push(bytes);
        if (/\.m?js$/.test(f)) modules[path.relative(dir, p)] = { js: bytes.toString("utf8") };
      }
    }
  };
  walk(dir);
  return { modules, raw, gzipped, stream: gzipSync(Buffer.concat(all)).length };
}

/** The compatibility flags of a wrangler config (the meter's Workers get the same). */
function flagsOf(configPath) {
  const m = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(readFileSync(configPath, "utf8"));
  return m ? [...m[1].matchAll(/"([^"]+)"/g)].map((x) => x[1]) : [];
}

/** Builds the upload twice from one source tree: `--outdir` (the modules) and `--outfile` (check startup's input). */
export function buildVariant(out, name, args = []) {
  const dir = path.join(out, name);
  rmSync(dir, { recursive: true, force: true });
  wrangler(["deploy", "--dry-run", ...NO_CONTAINER_BUILD, "--outdir", dir, ...args]);
  wrangler(["deploy", "--dry-run", ...NO_CONTAINER_BUILD, "--outfile", `${dir}.bundle`, ...args]);
  return dir;
}

/**
 * `wrangler check startup` on a prebuilt upload, `runs` times: the median of non-idle samples × the sampling
 * interval, and of the sum of the non-idle samples' deltas (the old figure). The interval is the median of
 * the short deltas over all of the variant's profiles: an empty Worker's profile may hold one or two samples,
 * each with a long delta, and no interval of its own.
 */
export function profileStartup(bundle, out, runs = PLAN.profiles) {
  const busy = [];
  const sums = [];
  const short = [];
  for (let i = 0; i < runs; i++) {
    const file = path.join(out, "startup.cpuprofile");
    wrangler(["check", "startup", "--worker-bundle", bundle, "--outfile", file]);
    const p = JSON.parse(readFileSync(file, "utf8"));
    const idle = new Set(p.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));
    short.push(...p.timeDeltas.filter((d) => d > 0 && d < 3000));
    let count = 0;
    let sum = 0;
    p.samples.forEach((id, k) => {
      if (idle.has(id)) return;
      count++;
      sum += p.timeDeltas[k] ?? 0;
    });
    busy.push(count);
    sums.push(sum / 1000);
  }
  // V8's default sampling interval on this runtime is about 1.1 ms: the fallback when no profile had a short delta.
  const interval = (short.length > 0 ? median(short) : 1100) / 1000;
  return { samples: median(busy.map((n) => n * interval)), deltas: median(sums), interval, runs };
}

/** Nanoseconds every thread of these processes has run on a CPU. */
const cpuNs = (pids) => pids.reduce((ns, pid) => ns + (threadsCpu(pid) ?? 0), 0);

/** The meter under `wrangler dev` on free loopback ports; resolves when it answers. */
async function startMeter(out) {
  const port = await freePort();
  const inspector = await freePort();
  const group = new Group(
    wranglerBin(),
    [
      "dev",
      "--config",
      "bench/wrangler.meter.toml",
      "--ip",
      HOST,
      "--port",
      String(port),
      "--inspector-ip",
      HOST,
      "--inspector-port",
      String(inspector),
      "--persist-to",
      path.join(out, "meter-state"),
      "--show-interactive-dev-session=false",
    ],
    path.join(out, "meter-wrangler.log"),
    wranglerEnv(),
  );
  const url = `http://${HOST}:${port}/`;
  const post = async (body) => {
    const response = await fetch(url, { method: "POST", body: JSON.stringify(body), signal: AbortSignal.timeout(120_000) });
    const text = await response.text();
    if (!response.ok) throw new Error(`meter: ${response.status} ${text.slice(0, 500)}`);
  };
  const started = Date.now();
  for (;;) {
    if (!group.alive) throw new Error(`the meter's wrangler dev exited:\n${group.tail()}`);
    if (Date.now() - started > 60_000) {
      await group.stop();
      throw new Error(`the meter was not ready within 60 s:\n${group.tail()}`);
    }
    try {
      await post({ n: 3 }); // also warms the loader up
      break;
    } catch {
      await sleep(250);
    }
  }
  return { group, post, pids: workerdProcesses(group.child.pid).map((p) => p.pid) };
}

/**
 * The meter over `variants` ({ label, dir | null, flags }): per variant, workerd's CPU per cold start of each
 * batch, over `rounds` fresh meters with the variants in a rotated order each round.
 */
export async function meterStartup(variants, out, { rounds = PLAN.rounds, perRound = PLAN.perRound } = {}) {
  const bodies = variants.map((v) => {
    if (!v.dir) return { n: perRound, flags: v.flags ?? [] };
    const { modules } = modulesOf(v.dir);
    const main = ["index.js", "main.js", "index.mjs"].find((m) => m in modules);
    if (!main) throw new Error(`${v.dir}: no index.js`);
    return { modules, main, flags: v.flags ?? [], n: perRound };
  });
  const batches = variants.map(() => []);
  for (let r = 0; r < rounds; r++) {
    const meter = await startMeter(out);
    try {
      if (meter.pids.length === 0) throw new Error("no workerd process found for the meter (needs Linux /proc)");
      for (let k = 0; k < variants.length; k++) {
        const i = (k + r) % variants.length;
        const before = cpuNs(meter.pids);
        await meter.post(bodies[i]);
        batches[i].push((cpuNs(meter.pids) - before) / 1e6 / perRound);
      }
    } finally {
      await meter.group.stop();
    }
  }
  return batches.map((xs) => ({ min: Math.min(...xs), median: median(xs), n: xs.length * perRound }));
}

/** The empty Worker with the same bindings as ours (check startup's floor): its config, in `out`. */
function emptyWorkerConfig(out) {
  writeFileSync(
    path.join(out, "empty-worker.mjs"),
    'import { DurableObject } from "cloudflare:workers";\nexport class ChatScheduler extends DurableObject {}\nexport class RunnerContainer extends DurableObject {}\n' +
      'export default { fetch() { return new Response(""); }, queue() {} };\n',
  );
  const config = path.join(out, "wrangler.empty.toml");
  writeFileSync(
    config,
    readFileSync(path.join(root, "wrangler.toml"), "utf8")
      .replace(/^main = .*$/m, `main = "empty-worker.mjs"`)
      .replace(/^migrations_dir = .*$/m, "")
      // Nor the uploaded modules beside the Worker (chrono-node's locales): their base_dir is relative to the root.
      .replace(/^(base_dir|find_additional_modules|rules) = .*$/gm, "")
      .replace(/^\[alias\][\s\S]*?(?=^\[)/m, "")
      // No container here: the empty Worker has no container class, and image paths are relative to the root.
      .replace(/^\[\[containers\]\][\s\S]*?(?=^\[|(?![\s\S]))/gm, "")
      // Nor the page: its assets are not part of the Worker, and their directory is relative to the root too.
      .replace(/^\[assets\][\s\S]*?(?=^\[|(?![\s\S]))/gm, ""),
  );
  return config;
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/**
 * `npm run bench`'s start-up section: ours as wrangler.toml builds it, ours without the MCP SDK, the empty
 * Worker; both methods. Returns the figures for the summary.
 */
export async function startupBench({ out }) {
  const dir = path.join(out, "startup");
  mkdirSync(dir, { recursive: true });
  const flags = flagsOf(path.join(root, "wrangler.toml"));
  const ours = buildVariant(dir, "ours");
  const noMcp = buildVariant(dir, "no-mcp", NO_MCP);
  const empty = buildVariant(dir, "empty", ["--config", emptyWorkerConfig(dir)]);
  const size = modulesOf(ours);
  const sizeNoMcp = modulesOf(noMcp);
  console.log(
    `  upload as wrangler.toml builds it (wrangler deploy --dry-run): ${kib(size.raw)}, gzipped ${kib(size.gzipped)} module by module, ${kib(size.stream)} as one stream (wrangler's figure); without the MCP SDK ${kib(sizeNoMcp.raw)}, gzipped ${kib(sizeNoMcp.gzipped)}${flags.length ? `; compatibility flags ${flags.join(", ")}` : ""}`,
  );
  const [pOurs, pNoMcp, pEmpty] = [ours, noMcp, empty].map((d) => profileStartup(`${d}.bundle`, dir));
  const [mOurs, mNoMcp, mEmpty] = await meterStartup(
    [
      { label: "ours", dir: ours, flags },
      { label: "no MCP", dir: noMcp, flags },
      { label: "empty", dir: null, flags },
    ],
    dir,
  );
  const row = (label, o, n, e, method) => `    ${label.padEnd(34)}${[o, n, e, o - e, n - e].map((x) => fmt(x, 1).padStart(8)).join("")}   ${method}`;
  console.log(`  start-up CPU (ms)                     ours  no MCP   empty  ours−empty  no MCP−empty`);
  console.log(
    row(
      "check startup, samples × interval",
      pOurs.samples,
      pNoMcp.samples,
      pEmpty.samples,
      `non-idle samples × ${fmt(pOurs.interval, 2)} ms, median of ${pOurs.runs} profiles each (no compile time: the legacy registry compiles before the profiler starts)`,
    ),
  );
  console.log(
    row(
      "check startup, sum of deltas (old)",
      pOurs.deltas,
      pNoMcp.deltas,
      pEmpty.deltas,
      "the figure before issue 17: its first busy sample carries the idle wait (+0…11 ms at random)",
    ),
  );
  console.log(
    row(
      "meter, workerd CPU per cold start",
      mOurs.median,
      mNoMcp.median,
      mEmpty.median,
      `median of ${PLAN.rounds} batches of ${PLAN.perRound} fresh Workers (Worker Loader), /proc schedstat, compile + evaluate + one request; min ours ${fmt(mOurs.min, 1)}, no MCP ${fmt(mNoMcp.min, 1)}, empty ${fmt(mEmpty.min, 1)}`,
    ),
  );
  console.log(
    `    target: ours − empty ≤ 10 ms (issue 17). The MCP SDK is imported by /mcp only (src/http/mcp.ts); wrangler inlines that import(), so its code is parsed at start-up but its module body waits for the first /mcp request`,
  );
  return {
    gzipped: size.gzipped,
    samples: { ours: pOurs.samples, empty: pEmpty.samples, noMcp: pNoMcp.samples },
    meter: { ours: mOurs.median, empty: mEmpty.median, noMcp: mNoMcp.median },
  };
}

/** Alone: the A/B table of prebuilt variants (see the module comment). */
async function compare(specs) {
  const out = path.join(root, ".bench", "startup-ab");
  mkdirSync(out, { recursive: true });
  const variants = specs.map((spec) => {
    const [label, rest = ""] = spec.split("=");
    const [dir, flags] = rest.split(":");
    return { label, dir: dir ? path.resolve(dir) : null, flags: flags ? flags.split(",") : [] };
  });
  const meters = await meterStartup(variants, out);
  const floor = meters[variants.findIndex((v) => !v.dir)]?.median ?? NaN;
  console.log(`variant                       gz KiB  (stream)   samples×interval   sum of deltas   meter min / median   over empty (meter median)`);
  variants.forEach((v, i) => {
    const size = v.dir ? modulesOf(v.dir) : { gzipped: NaN, stream: NaN };
    const gz = size.gzipped / 1024;
    const p = v.dir ? profileStartup(`${v.dir}.bundle`, out) : { samples: NaN, deltas: NaN };
    const m = meters[i];
    console.log(
      `${`${v.label}${v.flags.length ? ` [${v.flags.join(",")}]` : ""}`.padEnd(28)}${fmt(gz, 1).padStart(8)}${fmt(size.stream / 1024, 1).padStart(10)}${fmt(p.samples, 1).padStart(19)}${fmt(p.deltas, 1).padStart(16)}${`${fmt(m.min, 1)} / ${fmt(m.median, 1)}`.padStart(21)}${fmt(m.median - floor, 1).padStart(12)}`,
    );
  });
  console.log(`(${PLAN.profiles} check-startup profiles per variant, medians; meter: ${PLAN.rounds} rounds × ${PLAN.perRound} cold starts, variants in turn)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await compare(process.argv.slice(2));
}
