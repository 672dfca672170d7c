#!/usr/bin/env node
/**
 * The watcher figures of docs/operations.md and issue 6, printed and never asserted, against the real runner (`node
 * runner/src/main.ts`, a child process on a free loopback port with a generated secret and a temporary
 * WORKSPACE_ROOT):
 *
 * 1. The runner's overhead for a trivial script (`true`), measured from Node: `POST /runs` → the signed
 *    callback arriving at a local HTTP server, `POST /runs?wait=1` → its answer, and the baseline of spawning
 *    `/bin/sh -c true` from Node with the runner's own spawn options, interleaved run by run so that load on
 *    the machine hits all three alike.
 * 2. A silent watcher tick's cost: the real Worker and ChatScheduler under `wrangler dev` (bench/fire-worker.ts,
 *    the bundle bench/fire.mjs builds), pointed at the runner (RUNNER_URL, RUNNER_SECRET, PUBLIC_URL) and with
 *    Telegram configured against a local Bot API stub, so a call would be made and counted if the tick made
 *    one. Per tick: queue messages, prompts handed to the consumer (the echo agent: what would be model
 *    calls), Telegram calls (at the stub, per chat), the Worker's outbound fetches by origin, runner calls, and
 *    the SQLite rows written by every statement the chat ran from the due instant to the settled outcome (the
 *    alarm that claims and starts the run plus the callback that settles it). A watcher that prints is run
 *    once as the control: each counter sees its one message.
 * 3. Lateness of those ticks: due instant → the runner started the script, → the chat took the outcome.
 *
 * Everything listens on 127.0.0.1 and is stopped at the end, also on error or Ctrl-C. Run by `npm run bench`
 * (bench/run.mjs) after the firing section, or alone: `node bench/watchers.mjs` with Node 22 (npm run uses it).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { signatureHeader, verify } from "../runner/src/contract.ts";
import { freePort, HOST, RUNNER_MAIN, root, runnerEnv, untilHealthy } from "../scripts/lib/local.mjs";
import { bundleFireWorker, fmt, Group, pad, serveFireWorker, stats } from "./harness.mjs";

// Runner overhead: sequential runs, the first `warmup` of each kind dropped.
const OVERHEAD = { warmup: 20, runs: 200 };
// Silent ticks: `chats` chats, one watcher each (command `true`, a yearly cron made due by the bench), ticked
// in `rounds` rounds, their due instants `spacing` ms apart; the first round is dropped from the latencies.
// The second half of the chats starts with a full history (`kept` settled runs), as a watcher that has ticked
// for a while: each of their settles also prunes the oldest run.
const TICKS = { chats: 4, rounds: 6, warmupRounds: 1, spacing: 100, lead: 500, wait: 10_000, settle: 300, kept: 50 };
const TICK_CHATS = Array.from({ length: TICKS.chats }, (_, i) => String(9_700_001 + i));
const FULL_HISTORY = TICK_CHATS.slice(TICKS.chats / 2);
const CONTROL_CHAT = "9700099";
// A yearly cron: only the bench makes it due, so no occurrence of its own lands inside the measurement.
const YEARLY = "0 0 1 1 *";

/** `node runner/src/main.ts` in its own process group on a free loopback port; ready when /healthz answers. */
async function startRunner({ secret, workspaceRoot, log }) {
  const port = await freePort();
  const url = `http://${HOST}:${port}`;
  const group = new Group(RUNNER_MAIN, [], log, runnerEnv({ secret, port, workspaceRoot }));
  const started = Date.now();
  if ((await untilHealthy(url, { withinMs: 15_000, gone: () => !group.alive })) !== "ready") {
    await group.stop();
    throw new Error(`the runner did not answer on ${url}/healthz within 15 s:\n${group.tail()}`);
  }
  return { url, group, readyMs: Date.now() - started };
}

/** Starts an HTTP server on loopback; `handle(req, body, res)` runs once the body is read. */
async function serve(handle) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => handle(req, Buffer.concat(chunks).toString("utf8"), res));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, resolve);
  });
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { base: `http://${HOST}:${server.address().port}`, close };
}

/** A Bot API stand-in: answers every method `ok` with a message, and counts the calls per `chat_id`. */
async function botApiStub() {
  const calls = {};
  let sent = 0;
  const server = await serve((_req, body, res) => {
    let chatId = "?";
    try {
      chatId = String(JSON.parse(body).chat_id ?? "?");
    } catch {
      // Not JSON: counted under "?".
    }
    calls[chatId] = (calls[chatId] ?? 0) + 1;
    const result = { message_id: ++sent, date: Math.floor(Date.now() / 1000), chat: { id: Number(chatId) || 0, type: "private" }, text: "" };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, result }));
  });
  return { ...server, calls };
}

/** `/bin/sh -c true` spawned as the runner spawns it (own group, stdin closed, both pipes read): → exit, → close. */
function bareSpawn(cwd) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let exitAt = NaN;
    const child = spawn("/bin/sh", ["-c", "true"], { cwd, env: { PATH: "/usr/bin:/bin" }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    child.stdout.on("data", () => {});
    child.stderr.on("data", () => {});
    child.once("error", reject);
    child.once("exit", () => (exitAt = performance.now()));
    child.once("close", () => resolve({ exit: exitAt - t0, close: performance.now() - t0 }));
  });
}

/**
 * The runner's overhead: OVERHEAD.warmup + OVERHEAD.runs rounds of a bare spawn, an async run (request → 202,
 * request → callback) and a dry run (`?wait=1`), one after the other. Times are performance.now() in this
 * process, taken just before the request is sent (body and signature made already) and when the callback's
 * body has been read.
 */
async function runnerOverhead(runner, secret, workspace) {
  const arrivals = new Map();
  const callbacks = await serve((req, body, res) => {
    const at = performance.now();
    res.writeHead(204).end();
    let outcome = null;
    try {
      outcome = JSON.parse(body);
    } catch {
      // Reported as a callback that was not an outcome.
    }
    // `at` is taken first: checking the signature (v2: the method, the target as it arrived, the body) is not
    // part of the time measured.
    const signed = { method: req.method, target: req.url, body };
    void verify(secret, req.headers["x-cuckoo-signature"], signed, Date.now() / 1000).then((verification) =>
      arrivals.get(outcome?.runId)?.({ at, outcome, signed: verification.ok }),
    );
  });
  /** The body and signed headers of a run request for `target` (`/runs` or `/runs?wait=1`). */
  const request = async (target, runId, callbackUrl) => {
    const body = JSON.stringify({
      runId,
      chatId: "9700000",
      jobId: "bench",
      command: "true",
      timeoutSeconds: 10,
      timeZone: "UTC",
      ...(callbackUrl ? { callbackUrl } : {}),
    });
    const signature = await signatureHeader(secret, { method: "POST", target, body }, Date.now() / 1000);
    return { body, headers: { "content-type": "application/json", "x-cuckoo-signature": signature } };
  };
  const samples = { spawnExit: [], spawnClose: [], accepted: [], callback: [], runnerOwn: [], wait: [], waitOwn: [] };
  const checks = { runs: 0, accepted: 0, callbacks: 0, signed: 0, silent: 0, waits: 0, waitSilent: 0 };
  const own = (o) => Date.parse(o.finishedAt) - Date.parse(o.startedAt);
  try {
    for (let i = 0; i < OVERHEAD.warmup + OVERHEAD.runs; i++) {
      const keep = i >= OVERHEAD.warmup;
      const bare = await bareSpawn(workspace);

      const runId = `bench-overhead-${i}`;
      const arrived = new Promise((resolve) => arrivals.set(runId, resolve));
      const async = await request("/runs", runId, `${callbacks.base}/callback`);
      const t0 = performance.now();
      const response = await fetch(`${runner.url}/runs`, { method: "POST", headers: async.headers, body: async.body, signal: AbortSignal.timeout(10_000) });
      const answer = await response.text();
      const acceptedAt = performance.now();
      if (response.status !== 202) throw new Error(`POST /runs answered ${response.status}: ${answer.slice(0, 300)}`);
      // Unreferenced: a pending timer must not hold the process open once the bench is done.
      const callback = await Promise.race([arrived, sleep(10_000, null, { ref: false })]);
      arrivals.delete(runId);
      if (callback === null) throw new Error(`no callback for run ${runId} within 10 s (see runner.log)`);

      const dry = await request("/runs?wait=1", `bench-wait-${i}`);
      const w0 = performance.now();
      const waited = await fetch(`${runner.url}/runs?wait=1`, { method: "POST", headers: dry.headers, body: dry.body, signal: AbortSignal.timeout(10_000) });
      const outcome = await waited.json().catch(() => null);
      const answeredAt = performance.now();

      if (!keep) continue;
      checks.runs++;
      samples.spawnExit.push(bare.exit);
      samples.spawnClose.push(bare.close);
      if (response.status === 202) checks.accepted++;
      samples.accepted.push(acceptedAt - t0);
      checks.callbacks++;
      if (callback.signed) checks.signed++;
      if (callback.outcome?.status === "silent") checks.silent++;
      samples.callback.push(callback.at - t0);
      if (callback.outcome) samples.runnerOwn.push(own(callback.outcome));
      if (waited.status === 200 && outcome) {
        checks.waits++;
        if (outcome.status === "silent") checks.waitSilent++;
        samples.wait.push(answeredAt - w0);
        samples.waitOwn.push(own(outcome));
      }
    }
  } finally {
    await callbacks.close();
  }
  return { samples, checks };
}

/** The counters the Worker keeps for the watcher chats, and the stub's. */
async function counters(call, stub) {
  const watch = await call("/bench/watch?prefix=97");
  return { ...watch, telegram: { ...stub.calls } };
}

const delta = (after, before, key) => (after[key] ?? 0) - (before[key] ?? 0);

/** "INSERT INTO runs 1 + UPDATE jobs 1" per entry point, in the order they ran. */
function breakdown(statements) {
  const groups = [];
  for (const [label, query, rows] of statements) {
    const short = query.replace(/^(INSERT INTO \w+|UPDATE \w+|DELETE FROM \w+).*$/, "$1");
    const last = groups.at(-1);
    if (last?.label === label) last.parts.push(`${short} ${rows}`);
    else groups.push({ label, parts: [`${short} ${rows}`] });
  }
  return groups.map((g) => `${g.label}: ${g.parts.join(" + ")}`).join("; ");
}

/**
 * Silent ticks, then the control. Each round makes every tick chat's watcher due (TICKS.spacing apart),
 * waits until each chat has taken its outcome and TICKS.settle more for anything that would follow (a queue
 * message reaching the consumer, a Telegram send), then reads each chat's rows and every counter.
 */
async function watcherTicks(call, stub, runner, warnings) {
  await call("/bench/seed", {
    chats: [...TICK_CHATS, CONTROL_CHAT].map((chatId) => ({
      chatId,
      due: [Date.now() + 3_600_000],
      cron: YEARLY,
      command: chatId === CONTROL_CHAT ? "echo bench-match" : "true",
    })),
  });
  await call("/bench/history", { chatIds: FULL_HISTORY, count: TICKS.kept });
  const ticks = [];
  /** Per round, the Worker's outbound fetches other than to the runner, by origin (its fetch is shared by every chat). */
  const rounds = [];
  for (let round = 0; round < TICKS.rounds; round++) {
    const before = await counters(call, stub);
    const first = Date.now() + TICKS.lead;
    const plan = TICK_CHATS.map((chatId, k) => ({ chatId, at: first + k * TICKS.spacing }));
    await call("/bench/due", { chats: plan });
    if (Date.now() > first) warnings.push(`tick round ${round + 1}: making the watchers due ended ${Date.now() - first} ms after the first due instant`);
    const ofTick = (x, p) => x.chatId === p.chatId && x.runId.endsWith(`:${p.at}`);
    const deadline = plan.at(-1).at + TICKS.wait;
    for (;;) {
      const { outcomes } = await counters(call, stub);
      if (plan.every((p) => outcomes.some((o) => ofTick(o, p) && o.taken))) break;
      if (Date.now() > deadline) {
        warnings.push(`tick round ${round + 1}: not every outcome was taken within ${TICKS.wait / 1000} s of the last due instant`);
        break;
      }
      await sleep(50);
    }
    await sleep(TICKS.settle);
    const after = await counters(call, stub);
    const rows = await call("/bench/ticks", { chatIds: TICK_CHATS });
    plan.forEach((p, k) => {
      const outcome = after.outcomes.find((o) => ofTick(o, p));
      const runnerCall = after.runnerCalls.find((c) => ofTick(c, p));
      ticks.push({
        round,
        chatId: p.chatId,
        fullHistory: FULL_HISTORY.includes(p.chatId),
        dueAt: p.at,
        queued: delta(after.queued, before.queued, p.chatId),
        consumed: delta(after.consumed, before.consumed, p.chatId),
        telegram: delta(after.telegram, before.telegram, p.chatId),
        runnerCalls: after.runnerCalls.filter((c) => c.chatId === p.chatId).length - before.runnerCalls.filter((c) => c.chatId === p.chatId).length,
        outcomes: after.outcomes.filter((o) => o.chatId === p.chatId).length - before.outcomes.filter((o) => o.chatId === p.chatId).length,
        status: outcome?.status ?? null,
        taken: outcome?.taken ?? false,
        sentAt: runnerCall?.sentAt ?? null,
        answeredAt: runnerCall?.answeredAt ?? null,
        startedAt: outcome?.startedAt ?? null,
        finishedAt: outcome?.finishedAt ?? null,
        enteredAt: outcome?.enteredAt ?? null,
        doneAt: outcome?.doneAt ?? null,
        ...rows[k],
      });
    });
    const others = Object.keys(after.fetches).filter((origin) => origin !== runner.url);
    rounds.push({ round, fetches: Object.fromEntries(others.map((o) => [o, delta(after.fetches, before.fetches, o)])) });
  }

  // The control: a watcher that prints, so each counter is seen to count (one queue message, one prompt
  // for the agent, the echo reply sent to the stub).
  const before = await counters(call, stub);
  const at = Date.now() + TICKS.lead;
  await call("/bench/due", { chats: [{ chatId: CONTROL_CHAT, at }] });
  let after = before;
  while (Date.now() < at + TICKS.wait) {
    after = await counters(call, stub);
    if (delta(after.telegram, before.telegram, CONTROL_CHAT) > 0) break;
    await sleep(50);
  }
  await sleep(TICKS.settle);
  after = await counters(call, stub);
  const control = {
    queued: delta(after.queued, before.queued, CONTROL_CHAT),
    consumed: delta(after.consumed, before.consumed, CONTROL_CHAT),
    telegram: delta(after.telegram, before.telegram, CONTROL_CHAT),
    status: after.outcomes.find((o) => o.chatId === CONTROL_CHAT)?.status ?? null,
  };
  return { ticks, rounds, control };
}

/** A figure's row: label, then p50, p99, max with `digits` decimals, then n. */
function row(label, x, digits, note = "") {
  return `    ${label.padEnd(56)}${[x.p50, x.p99, x.max].map((v) => pad(fmt(v, digits), 7)).join("")}${pad(x.n, 6)}${note ? `   ${note}` : ""}`;
}

const header = (title) => `  ${title.padEnd(58)}${["p50", "p99", "max"].map((h) => pad(h, 7)).join("")}${pad("n", 6)}`;

/** One value when every tick agrees, else min–max. */
function range(ticks, key) {
  const values = ticks.map((t) => t[key]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return lo === hi ? String(lo) : `${lo}–${hi} (min–max)`;
}

function printOverhead(print, { samples, checks }) {
  const s = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, stats(v)]));
  print(header("runner overhead for `true` (ms), from Node on loopback"));
  print(row("POST /runs → signed callback arrived at a local server", s.callback, 1));
  print(row("POST /runs → 202 answered", s.accepted, 1));
  print(row("POST /runs?wait=1 → outcome answered", s.wait, 1));
  print(row("the runner's startedAt → finishedAt (its clock, whole ms)", s.runnerOwn, 1));
  print(
    row(
      "baseline: spawn /bin/sh -c true from Node → close",
      s.spawnClose,
      1,
      `exited and both pipes closed, as the runner waits; → exit alone p50 ${fmt(s.spawnExit.p50, 1)}`,
    ),
  );
  print(
    `    the runner's own share, p50 over the baseline: ${fmt(s.callback.p50 - s.spawnClose.p50, 1)} ms to the callback, ${fmt(s.wait.p50 - s.spawnClose.p50, 1)} ms with ?wait=1`,
  );
  print(
    `    check: ${checks.runs} async runs, ${checks.accepted} answered 202, ${checks.callbacks} callbacks (${checks.signed} with a valid signature, ${checks.silent} silent); ${checks.waits} dry runs answered 200 (${checks.waitSilent} silent)`,
  );
  print(
    `    how: the runner as a child process; ${OVERHEAD.runs} rounds after ${OVERHEAD.warmup} for warm-up, one after another, each a bare spawn, an async run and a dry run; performance.now() from just before the request is sent (body and signature made) to the callback's body read, or the answer read`,
  );
  return { callback: s.callback, accepted: s.accepted, wait: s.wait, runnerOwn: s.runnerOwn, spawnExit: s.spawnExit, spawnClose: s.spawnClose, checks };
}

function printTicks(print, { ticks, rounds, control }) {
  const otherFetches = rounds.reduce((n, r) => n + Object.values(r.fetches).reduce((a, b) => a + b, 0), 0);
  const silent = ticks.filter((t) => t.status === "silent" && t.taken).length;
  print(
    `  a silent watcher tick (command \`true\`): ${TICKS.chats} chats × ${TICKS.rounds} ticks = ${ticks.length}, each from the due instant to the settled outcome and ${TICKS.settle} ms more`,
  );
  print(
    `    per tick: ${range(ticks, "queued")} queue messages, ${range(ticks, "telegram")} Telegram calls, ${range(ticks, "consumed")} prompts to the consumer (model calls; echo agent) (targets 0, 0, 0); ${range(ticks, "runnerCalls")} runner call and ${range(ticks, "outcomes")} callback; the Worker's other outbound fetches over all ticks: ${otherFetches}`,
  );
  print(
    `    SQLite rows written per tick: ${range(ticks, "rowsWritten")}, the sum of cursor.rowsWritten over every statement the chat ran, alarm and callback (index entries count too, as billed); total_changes() ${range(ticks, "changes")} (it also counts workerd's alarm row, set by both)`,
  );
  const groups = [
    { label: `a watcher with fewer than ${TICKS.kept} runs kept`, ticks: ticks.filter((t) => !t.fullHistory) },
    { label: `a watcher with ${TICKS.kept} runs kept (each settle prunes the oldest)`, ticks: ticks.filter((t) => t.fullHistory) },
  ];
  const rows = groups.map((group) => {
    const byBreakdown = new Map();
    for (const t of group.ticks) {
      const key = breakdown(t.statements);
      byBreakdown.set(key, [...(byBreakdown.get(key) ?? []), t]);
    }
    const breakdowns = [...byBreakdown.entries()].sort((a, b) => b[1].length - a[1].length);
    print(`      ${group.label}: ${range(group.ticks, "rowsWritten")} rows, total_changes() ${range(group.ticks, "changes")}`);
    for (const [key, same] of breakdowns.slice(0, 3)) print(`        ${same[0].rowsWritten} = ${key}   (${same.length} of ${group.ticks.length} ticks)`);
    if (breakdowns.length > 3) print(`        … and ${breakdowns.length - 3} other breakdowns (see watchers.json)`);
    return {
      group: group.label,
      rowsWritten: range(group.ticks, "rowsWritten"),
      changes: range(group.ticks, "changes"),
      breakdowns: breakdowns.map(([key, same]) => ({ rowsWritten: same[0].rowsWritten, breakdown: key, ticks: same.length })),
    };
  });

  const measured = ticks.filter((t) => t.round >= TICKS.warmupRounds);
  const lat = (pick) => stats(measured.map(pick).filter(Number.isFinite));
  const lateness = {
    requestSent: lat((t) => t.sentAt - t.dueAt),
    scriptStarted: lat((t) => t.startedAt - t.dueAt),
    outcomeTaken: lat((t) => t.doneAt - t.dueAt),
    callback: lat((t) => t.enteredAt - t.finishedAt),
  };
  print(header("a silent tick's lateness (ms), due instant →"));
  print(row("the runner request sent (the alarm's fetch)", lateness.requestSent, 0));
  print(row("the runner started the script (its startedAt)", lateness.scriptStarted, 0));
  print(row("the chat took the outcome (runnerOutcome returned)", lateness.outcomeTaken, 0));
  print(row("of which: script ended → callback entered the chat", lateness.callback, 0, "the runner's callback, the Worker's route and its check"));
  print(
    `    check: ${silent} of ${ticks.length} ticks settled silent; the first round (${TICKS.chats * TICKS.warmupRounds} ticks) is left out of the lateness for warm-up; with n < 100, p99 is the max`,
  );
  print(
    `  control, a watcher that prints (\`echo bench-match\`): ${control.status ?? "no outcome"}; ${control.queued} queue message, ${control.consumed} prompt to the consumer, ${control.telegram} Telegram call (the echo reply): each counter above sees what it counts`,
  );
  const perTick = Object.fromEntries(["queued", "telegram", "consumed", "runnerCalls", "outcomes", "rowsWritten", "changes"].map((k) => [k, range(ticks, k)]));
  return { perTick, otherFetches, rows, lateness, silent, control };
}

export async function watcherBench({ out = path.join(root, ".bench"), dist } = {}) {
  mkdirSync(out, { recursive: true });
  const print = (line) => console.log(line);
  const warnings = [];
  const secret = randomBytes(32).toString("hex");
  const workspaceRoot = mkdtempSync(path.join(os.tmpdir(), "cuckoo-bench-workspaces-"));
  const stub = await botApiStub();
  let runner = null;
  let worker = null;
  // watchers.json: the summary of what is printed, then every sample.
  const result = { summary: {}, plan: { OVERHEAD, TICKS, chats: TICK_CHATS, control: CONTROL_CHAT } };
  try {
    runner = await startRunner({ secret, workspaceRoot, log: path.join(out, "runner.log") });
    print(
      `  the runner: node runner/src/main.ts as a child process on ${runner.url}, a generated secret, workspaces in a temporary directory; ready in ${(runner.readyMs / 1000).toFixed(1)} s`,
    );

    // 1. The runner's overhead, with nothing else running.
    try {
      result.overhead = await runnerOverhead(runner, secret, workspaceRoot);
      result.summary.overhead = printOverhead(print, result.overhead);
    } catch (error) {
      print(`  runner overhead: not measured: ${error instanceof Error ? error.message : String(error)}`);
    }

    // 2–3. Silent ticks through the Worker.
    dist ??= bundleFireWorker(out);
    worker = await serveFireWorker({
      dist,
      persist: path.join(out, "watch-state"),
      log: path.join(out, "watch-wrangler.log"),
      vars: (base) => ({
        RUNNER_URL: runner.url,
        RUNNER_SECRET: secret,
        PUBLIC_URL: base,
        TELEGRAM_BOT_TOKEN: "123456789:bench-stub-token-not-a-real-one",
        TELEGRAM_WEBHOOK_SECRET: "bench",
        TELEGRAM_API_BASE: stub.base,
        ALLOWED_USER_IDS: [...TICK_CHATS, CONTROL_CHAT].join(","),
      }),
    });
    print(
      `  wrangler dev on ${worker.base} (the same bundle), RUNNER_URL and PUBLIC_URL on loopback, Telegram configured with a local Bot API stub; ready in ${(worker.readyMs / 1000).toFixed(1)} s`,
    );
    const ticks = await watcherTicks(worker.call, stub, runner, warnings);
    Object.assign(result, ticks);
    result.summary.tick = printTicks(print, ticks);
  } finally {
    await worker?.stop();
    await runner?.group.stop();
    await stub.close();
    rmSync(workspaceRoot, { recursive: true, force: true });
  }
  for (const w of warnings) print(`  warning: ${w}`);
  writeFileSync(path.join(out, "watchers.json"), JSON.stringify(result));
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await watcherBench();
}
