#!/usr/bin/env node
/**
 * The turn figures of issues 13 and 17, printed and never asserted, against the real Worker, ChatScheduler and
 * consumer under `wrangler dev` (bench/fire-worker.ts, the bundle bench/fire.mjs builds):
 *
 * 1. One chat's echo turn: the RPC round trips the consumer makes to the chat per turn (counted on its chat
 *    stubs, by method), and workerd's CPU time per turn: one-offs of one chat fire a fixed interval apart,
 *    once answered by the real consumer (echo agent) and once by a consumer that only acknowledges; the
 *    difference of workerd's CPU time (every thread, /proc schedstat) over the two windows, per turn, is the
 *    turn's own cost (queue delivery, the consumer, its RPC, the reply and the settle), the firing being in both.
 * 2. Model turns: the fake OpenAI-compatible model of the tests (test/stub/model-stub.ts) answering every call
 *    after 500 ms; 100 chats × 1 prompt due at one instant → each reply's delay (due instant → the bot entry in
 *    the transcript), the model calls, the round trips per turn, the batches the consumer was handed; and the
 *    production estimate from Cloudflare's limits and wrangler.toml's consumer settings.
 * 3. The SQLite rows a model turn writes (a text reply, and one tool call before it), counted statement by
 *    statement on the chat's object (`cursor.rowsWritten`), the alarm that fired it apart.
 *
 * Run by `npm run bench` (bench/run.mjs), or alone: `node bench/agent.mjs` with Node 22 (npm run uses it).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { bundleFireWorker, fmt, serveFireWorker, stats, threadsCpu, workerdProcesses } from "./harness.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Echo turns: per window, `turns` one-offs of one fresh chat `spacing` ms apart; `rounds` × (real, ack-only), after one warm-up pair. */
const ECHO = { turns: 30, spacing: 200, rounds: 2 };
/** Model turns: chats × 1 prompt at one instant, the model's delay, the longest wait for every reply. */
const MODEL = { chats: 100, delayMs: 500, wait: 90_000, name: "bench-500ms" };
/** Cloudflare's limits (developers.cloudflare.com: Workers limits, Queues limits). */
const CLOUDFLARE = { connections: 6, maxConcurrency: 250, enqueuePerSecond: 5000 };
/** Telegram's bound on a bot's messages (about 30 per second over all chats). */
const TELEGRAM_PER_SECOND = 30;

const until = (t) => sleep(Math.max(0, t - Date.now()));

/** The prompts consumer's settings in wrangler.toml (what production runs). */
export function consumerSettings() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const block = /\[\[queues\.consumers\]\]\s*\nqueue = "prompts"\n([\s\S]*?)(?=\n\[|$)/.exec(toml)?.[1] ?? "";
  const num = (key, fallback) => Number(new RegExp(`^${key}\\s*=\\s*(\\d+)`, "m").exec(block)?.[1] ?? fallback);
  return { batchSize: num("max_batch_size", 10), concurrency: num("max_concurrency", CLOUDFLARE.maxConcurrency) };
}

/**
 * Seconds until the last of `chats` prompts due at one instant is answered in production, assuming the
 * consumers have scaled out to `concurrency` (Cloudflare scales them with the backlog and documents no rate):
 * enqueueing, then waves of batchSize × concurrency turns, each invocation's turns holding at most six model
 * calls at once, and Telegram's ~30 messages/s per bot for the replies.
 */
export function productionEstimate({ chats, modelSeconds, batchSize, concurrency, overheadSeconds = 0 }) {
  const enqueue = chats / CLOUDFLARE.enqueuePerSecond;
  const waves = Math.ceil(chats / (batchSize * concurrency));
  const perInvocation = Math.ceil(batchSize / CLOUDFLARE.connections) * modelSeconds + overheadSeconds;
  const model = enqueue + waves * perInvocation;
  const telegram = chats / TELEGRAM_PER_SECOND;
  return { waves, perInvocation, model, telegram, last: Math.max(model, telegram) };
}

/** The fake model of the tests, bundled for Node (its imports are TypeScript), listening on loopback. */
async function startModel(out) {
  const outfile = path.join(out, "model-stub.mjs");
  await build({ entryPoints: [path.join(root, "test/stub/model-stub.ts")], bundle: true, platform: "node", format: "esm", outfile, logLevel: "error" });
  const { startModelStub } = await import(pathToFileURL(outfile).href);
  return startModelStub();
}

/** CPU (ns) of every workerd thread of the served Worker. */
function workerCpu(worker) {
  return workerdProcesses(worker.wrangler.child.pid).reduce((ns, p) => ns + (threadsCpu(p.pid) ?? 0), 0);
}

/** One window of echo turns in a fresh chat: workerd's CPU over it, the consumer's RPCs, the chat's settles. */
async function echoWindow(worker, chatId, ackOnly) {
  const { call } = worker;
  await call("/bench/mode", ackOnly ? { ackOnly: true } : {});
  const start = Date.now() + 1500;
  await call("/bench/seed", { chats: [{ chatId, due: Array.from({ length: ECHO.turns }, (_, i) => start + i * ECHO.spacing) }] });
  await call("/bench/rpc?reset=1");
  const settledBefore = (await call(`/bench/count?prefix=${chatId}`)).settles;
  await until(start - 100);
  const before = workerCpu(worker);
  await until(start + ECHO.turns * ECHO.spacing + 400);
  const cpuMs = (workerCpu(worker) - before) / 1e6;
  const { rpc } = await call("/bench/rpc");
  const settled = (await call(`/bench/count?prefix=${chatId}`)).settles - settledBefore;
  return { cpuMs, rpc, settled };
}

/** Section 1: one chat's echo turn (the Worker as `npm run bench` serves it, echo agent). */
async function echoTurn(dist, out) {
  const worker = await serveFireWorker({ dist, persist: path.join(out, "echo-state"), log: path.join(out, "echo-wrangler.log") });
  try {
    let n = 0;
    const chat = () => String(9_820_000 + n++);
    await echoWindow(worker, chat(), false); // warm-up: JIT, the consumer's first batches
    await echoWindow(worker, chat(), true);
    const real = [];
    const ack = [];
    for (let r = 0; r < ECHO.rounds; r++) {
      real.push(await echoWindow(worker, chat(), false));
      ack.push(await echoWindow(worker, chat(), true));
    }
    const calls = real.reduce((sum, w) => sum + Object.values(w.rpc).reduce((a, b) => a + b, 0), 0);
    const byMethod = {};
    for (const w of real) for (const [k, v] of Object.entries(w.rpc)) byMethod[k] = (byMethod[k] ?? 0) + v;
    const turns = real.reduce((sum, w) => sum + w.settled, 0);
    const perTurn = (ms) => ms / ECHO.turns;
    const realMs = Math.min(...real.map((w) => w.cpuMs));
    const ackMs = Math.min(...ack.map((w) => w.cpuMs));
    return {
      calls,
      turns,
      byMethod,
      cpu: perTurn(realMs - ackMs),
      realPerFire: perTurn(realMs),
      ackPerFire: perTurn(ackMs),
      ackRpc: ack.reduce((s, w) => s + Object.values(w.rpc).reduce((a, b) => a + b, 0), 0),
    };
  } finally {
    await worker.stop();
  }
}

/** Section 2: 100 chats × 1 prompt at one instant, the model answering after 500 ms. */
async function modelBurst(dist, out) {
  const model = await startModel(out);
  const worker = await serveFireWorker({
    dist,
    persist: path.join(out, "model-state"),
    log: path.join(out, "model-wrangler.log"),
    vars: () => ({ LLM_BASE_URL: `${model.url}/v1`, LLM_MODEL: MODEL.name }),
  });
  const { call } = worker;
  try {
    await call("/bench/mode", {});
    const chats = Array.from({ length: MODEL.chats }, (_, i) => String(9_810_000 + i));
    for (let i = 0; i < chats.length; i += 50)
      await call("/bench/seed", { chats: chats.slice(i, i + 50).map((chatId) => ({ chatId, due: [Date.now() + 3_600_000] })) });
    const script = await fetch(`${model.url}/__stub/script`, {
      method: "POST",
      body: JSON.stringify({
        model: MODEL.name,
        answers: Array.from({ length: MODEL.chats }, () => ({ kind: "text", content: "Done.", delayMs: MODEL.delayMs })),
      }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!script.ok) throw new Error(`model stub: ${script.status}`);
    await call("/bench/rpc?reset=1");
    const settledBefore = (await call("/bench/count?prefix=981")).settles;
    const at = Date.now() + 5000;
    await Promise.all(Array.from({ length: 5 }, (_, k) => call("/bench/retime", { chatIds: chats.filter((_, i) => i % 5 === k), at })));
    const late = Date.now() > at ? Date.now() - at : 0;
    await until(at);
    const before = workerCpu(worker);
    let settled = 0;
    while (Date.now() < at + MODEL.wait) {
      settled = (await call("/bench/count?prefix=981")).settles - settledBefore;
      if (settled >= MODEL.chats) break;
      await sleep(100);
    }
    const cpuMs = (workerCpu(worker) - before) / 1e6;
    await sleep(500);
    const states = await call("/bench/agent", { chatIds: chats });
    const delays = [];
    let replies = 0;
    for (const s of states) {
      const bots = s.bots.filter(([runId, , source]) => runId !== null && source === "job");
      replies += bots.length;
      for (const [, when] of bots) delays.push(when - at);
    }
    const requests = (await (await fetch(`${model.url}/__stub/requests?model=${MODEL.name}`, { signal: AbortSignal.timeout(10_000) })).json()).requests.length;
    const { rpc, batches } = await call("/bench/rpc");
    const rows = await turnRows(call, model);
    const calls = Object.values(rpc).reduce((a, b) => a + b, 0);
    // Locally the batches run one after another: the time from the first reply to the last over the batches
    // between them is one batch's time, the model's delay and the Worker's own work for its turns.
    const sorted = [...delays].sort((a, b) => a - b);
    const batchMs = batches.count > 1 ? (sorted.at(-1) - sorted[0]) / (batches.count - 1) : NaN;
    return { delays: stats(delays), replies, settled, requests, rpc, calls, batches, batchMs, cpuMs, late, rows };
  } finally {
    await worker.stop();
    await model.close();
  }
}

/** The rows a model turn writes: turns of each kind, one chat at a time (the model's script is shared). */
const ROWS = { rounds: 3, lead: 2_000, wait: 30_000 };
const ROW_TURNS = {
  "a text reply": [{ kind: "text", content: "Done." }],
  "one tool call (schedule_list), then the reply": [
    { kind: "tools", calls: [{ name: "schedule_list", arguments: {} }] },
    { kind: "text", content: "Done." },
  ],
};

/**
 * Section 3: the SQLite rows a model turn writes (docs/operations.md: every row written is billed). A one-off of a
 * fresh chat fires, the model answers as scripted, and every statement the chat's object runs from just
 * before the fire until the run settled is logged (bench/fire-worker.ts `benchWatch`, `cursor.rowsWritten`,
 * index entries included); the turn's rows are those of its RPCs (offer, step records, tools, finish and the
 * self-healing after each), the fire's alarm apart. The fewest of `ROWS.rounds` turns of each kind.
 */
async function turnRows(call, model) {
  const figures = {};
  let n = 0;
  for (const [kind, answers] of Object.entries(ROW_TURNS)) {
    const turns = [];
    for (let round = 0; round < ROWS.rounds; round++) {
      const chatId = String(9_830_000 + n++);
      const at = Date.now() + ROWS.lead;
      await call("/bench/seed", { chats: [{ chatId, due: [at] }] });
      const script = await fetch(`${model.url}/__stub/script`, {
        method: "POST",
        body: JSON.stringify({ model: MODEL.name, answers }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!script.ok) throw new Error(`model stub: ${script.status}`);
      await call("/bench/watch-rows", { chatIds: [chatId] });
      const deadline = at + ROWS.wait;
      while (Date.now() < deadline && (await call(`/bench/count?prefix=${chatId}`)).settles < 1) await sleep(100);
      await sleep(300);
      const [tick] = await call("/bench/ticks", { chatIds: [chatId] });
      const own = tick.statements.filter(([label]) => label !== "alarm");
      turns.push({ rows: own.reduce((sum, [, , w]) => sum + w, 0), statements: own.map(([, q, w]) => [q.slice(0, 60), w]) });
    }
    turns.sort((a, b) => a.rows - b.rows);
    figures[kind] = turns[0];
  }
  return figures;
}

/** `npm run bench`'s turn section; returns the figures for the summary. */
export async function agentBench({ out, dist }) {
  const print = (line) => console.log(line);
  print(`  ${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)} at the start`);
  const echo = await echoTurn(dist, out);
  const methods = (byMethod) =>
    Object.entries(byMethod)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ") || "none";
  print(`  one chat's echo turn (the real consumer, echo agent; ${ECHO.rounds} windows of ${ECHO.turns} one-offs ${ECHO.spacing} ms apart, after a warm-up)`);
  print(
    `    RPC round trips to the chat per turn: ${fmt(echo.calls / Math.max(1, echo.turns), 2)} (${methods(echo.byMethod)} over ${echo.turns} turns) (target 1); the ack-only windows made ${echo.ackRpc}`,
  );
  print(
    `    workerd CPU per turn: ${fmt(echo.cpu, 2)} ms (target ≤ 4.5 ms) = fire + turn ${fmt(echo.realPerFire, 2)} ms − fire with an acking consumer ${fmt(echo.ackPerFire, 2)} ms (every thread of workerd, /proc schedstat, the least busy window of each kind; the runtime's share included: queue delivery, RPC, SQLite commits)`,
  );

  const m = await modelBurst(dist, out);
  const settings = consumerSettings();
  print(
    `  ${MODEL.chats} chats × 1 prompt due at one instant, AGENT=llm with a fake model answering each call after ${MODEL.delayMs} ms (test/stub/model-stub.ts)`,
  );
  print(
    `    last reply ${fmt(m.delays.max)} ms after the due instant (target ≤ 10,000 ms; one turn at a time would take ≥ ${fmt((MODEL.chats * MODEL.delayMs) / 1000)} s); p50 ${fmt(m.delays.p50)} ms; ${m.replies} replies, ${m.settled} runs settled, ${m.requests} model calls`,
  );
  print(
    `    RPC round trips to the chat per model turn: ${fmt(m.calls / Math.max(1, m.replies), 2)} (${methods(m.rpc)}) (target 2); workerd CPU ${fmt(m.cpuMs / Math.max(1, m.replies), 1)} ms per turn, the firing included`,
  );
  print(
    `    locally: miniflare's broker handed the consumer ${m.batches.count} batches (at most ${m.batches.largest} messages; wrangler.toml's max_batch_size ${settings.batchSize}) one after another, each batch's turns side by side: a batch took ${fmt(m.batchMs)} ms (first to last reply over the batches between), the model's ${MODEL.delayMs} ms and ${fmt(m.batchMs - MODEL.delayMs)} ms of the Worker's own work for its turns and the hand-over, on one thread shared with every object${m.late ? `; warning: moving the jobs ended ${m.late} ms after the due instant` : ""}`,
  );
  for (const [kind, figure] of Object.entries(m.rows)) {
    const by = {};
    for (const [q, w] of figure.statements) by[q] = (by[q] ?? 0) + w;
    print(
      `    SQLite rows a model turn writes, ${kind}: ${figure.rows} (the fewest of ${ROWS.rounds}; its RPCs, the fire's alarm apart: ${Object.entries(by)
        .map(([q, w]) => `${w} ${q}`)
        .join("; ")})`,
    );
  }
  const overheadSeconds = Number.isFinite(m.batchMs) ? Math.max(0, m.batchMs - MODEL.delayMs) / 1000 : 0;
  const est = productionEstimate({ chats: MODEL.chats, modelSeconds: MODEL.delayMs / 1000, overheadSeconds, ...settings });
  print(
    `    production (wrangler.toml: max_batch_size ${settings.batchSize}, max_concurrency ${settings.concurrency}; ≤ ${CLOUDFLARE.connections} connections waiting per invocation; invocations side by side): ${fmt(est.waves)} wave(s) of ≤ ${settings.batchSize * settings.concurrency} turns, ${fmt(est.perInvocation, 1)} s each (with the local batch's own work) → last reply ≈ ${fmt(est.model, 1)} s after the due instant once the consumers have scaled out (Cloudflare scales them with the backlog and publishes no rate); Telegram's ~${TELEGRAM_PER_SECOND} messages/s sends the ${MODEL.chats} replies in ≥ ${fmt(est.telegram, 1)} s`,
  );
  for (const [chats, seconds] of [
    [1000, 3],
    [10_000, 3],
  ]) {
    const e = productionEstimate({ chats, modelSeconds: seconds, ...settings });
    print(
      `    08:00 with ${chats.toLocaleString("en")} chats × 1 prompt and a model answering in ${seconds} s: ${e.waves} waves → ${fmt(e.model)} s of model time, Telegram ${fmt(e.telegram)} s → the last reply ≈ ${fmt(e.last)} s (${e.last === e.telegram ? "Telegram-bound" : "model-bound"})`,
    );
  }
  return { echo, model: m, production: est.model };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = path.join(root, ".bench");
  await agentBench({ out, dist: bundleFireWorker(out) });
}
