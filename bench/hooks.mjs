#!/usr/bin/env node
/**
 * A hook call's latency to its queue message beside a timed fire's (issue 34, docs/hooks.md), printed and never
 * asserted, against the real Worker and ChatScheduler under `wrangler dev` (bench/fire-worker.ts, whose queue
 * producer records when each `sendBatch` resolved):
 *
 * - timed: one prompt job per chat, due at an instant; the figure is the send's resolution minus the due instant;
 * - hook: one prompt job per chat with a hook; `POST /hooks/<token>` with a small JSON body, one chat after the
 *   other; the figures are the call's round trip (its 202 comes once the message was sent) and the send's
 *   resolution minus the instant the call was accepted (its run id's).
 *
 * Run by `npm run bench` (bench/run.mjs), or alone: `node bench/hooks.mjs` with Node 22.
 */
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleFireWorker, fmt, serveFireWorker, stats } from "./harness.mjs";

/** Chats measured for each figure, after two warm-up chats. */
const CHATS = 30;
const line = (label, s) => `    ${label}: median ${fmt(s.p50, 1)} ms, p99 ${fmt(s.p99, 1)} ms, max ${fmt(s.max, 1)} ms (${s.n} runs)`;

export async function hookBench({ out, dist }) {
  const worker = await serveFireWorker({ dist, persist: path.join(out, "hooks-state"), log: path.join(out, "hooks-wrangler.log") });
  try {
    const json = (pathname, body) =>
      fetch(worker.base + pathname, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    const sends = async (prefix) => (await worker.call(`/bench/samples?prefix=${prefix}`)).sends;

    // Timed fires: one job per chat, due a chat every 150 ms from 3 s on.
    const timedChats = Array.from({ length: CHATS + 2 }, (_, i) => `77100${String(i).padStart(3, "0")}`);
    const start = Date.now() + 3_000;
    await worker.call("/bench/seed", { chats: timedChats.map((chatId, i) => ({ chatId, due: [start + i * 150] })) });
    await sleep(Math.max(0, start + timedChats.length * 150 + 2_000 - Date.now()));
    const timed = (await sends("77100")).filter((s) => !s.chatId.endsWith("000") && !s.chatId.endsWith("001")).map((s) => s.sentAt - s.dueAt);

    // Hook calls: one job per chat with its hook, called one chat after the other.
    const round = [];
    const accepted = [];
    for (let i = 0; i < CHATS + 2; i++) {
      const chatId = `77200${String(i).padStart(3, "0")}`;
      const created = await json(`/admin/chats/${chatId}/jobs`, { name: "bench hook", kind: "prompt", text: "Say hi.", trigger: "hook" });
      if (created.status !== 201) throw new Error(`creating a hook job: ${created.status} ${await created.text()}`);
      const { hook } = await created.json();
      const t0 = performance.now();
      const called = await json(new URL(hook.url).pathname, { event: "deploy", build: i });
      const t1 = performance.now();
      if (called.status !== 202) throw new Error(`calling the hook: ${called.status} ${await called.text()}`);
      const { runId } = await called.json();
      if (i < 2) continue;
      round.push(t1 - t0);
      const sent = (await sends(chatId)).find((s) => s.runId === runId);
      if (sent) accepted.push(sent.sentAt - Number(runId.slice(runId.lastIndexOf(":") + 1)));
    }
    console.log(line("timed fire: due instant → queue message sent", stats(timed)));
    console.log(line("hook call: accepted → queue message sent", stats(accepted)));
    console.log(line("hook call: request → 202 (after the message was sent)", stats(round)));
    return { timed: stats(timed), accepted: stats(accepted), round: stats(round) };
  } finally {
    await worker.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", ".bench");
  await hookBench({ out, dist: bundleFireWorker(out) });
}
