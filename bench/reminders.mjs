#!/usr/bin/env node
/**
 * What reminders people rely on cost (issue 36, docs/telegram.md#notices-ahead, #nag-until-done), printed and never
 * asserted, against the real Worker and ChatScheduler under `wrangler dev` (bench/fire-worker.ts, which counts each
 * alarm and, with `countRows`, the SQLite rows its statements wrote):
 *
 * - notices: one chat with 100 one-offs due an hour and a few seconds from now, each with a notice an hour before,
 *   so that the 100 notices come due at one instant;
 * - nags: one chat with 100 one-offs due in a few seconds that nag every minute once more; the echo agent answers
 *   each, and a minute later the 100 copies come due at one instant.
 *
 * For each: the alarms the chat ran at that instant (the chat has one alarm; neither adds one per job), the rows they
 * wrote, and the messages written. Run by `npm run bench` (bench/run.mjs), or alone: `node bench/reminders.mjs`.
 */
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleFireWorker, serveFireWorker } from "./harness.mjs";

const JOBS = 100;
const HOUR = 3_600_000;

export async function reminderBench({ out, dist }) {
  const worker = await serveFireWorker({ dist, persist: path.join(out, "reminders-state"), log: path.join(out, "reminders-wrangler.log") });
  try {
    const post = async (pathname, body) => {
      const res = await fetch(worker.base + pathname, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      if (!res.ok) throw new Error(`${pathname}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const botEntries = async (chatId) => {
      const res = await fetch(`${worker.base}/admin/chats/${chatId}/messages?limit=500`, { signal: AbortSignal.timeout(30_000) });
      return (await res.json()).messages.filter((e) => e.role === "bot");
    };
    const alarmsAt = async (chatId, from) => (await worker.call(`/bench/samples?prefix=${chatId}`)).alarms.filter((a) => a.entryAt >= from);

    const notices = "77300000";
    const nags = "77300001";
    const start = Date.now();
    const noticeAt = start + 20_000;
    const fireAt = start + 20_000;
    for (let i = 0; i < JOBS; i++) {
      await post(`/admin/chats/${notices}/jobs`, {
        name: `Notice ${i}`,
        kind: "prompt",
        at: new Date(noticeAt + HOUR).toISOString(),
        text: "x",
        before: ["PT1H"],
      });
      await post(`/admin/chats/${nags}/jobs`, {
        name: `Nag ${i}`,
        kind: "prompt",
        at: new Date(fireAt).toISOString(),
        text: "x",
        repeat: { every: "PT1M", times: 1 },
      });
    }
    await worker.call("/bench/mode", { countRows: true });
    await sleep(Math.max(0, noticeAt + 3_000 - Date.now()));
    const noticeAlarms = await alarmsAt(notices, noticeAt - 1_000);
    const noticeMessages = (await botEntries(notices)).length;
    await sleep(Math.max(0, fireAt + 60_000 + 3_000 - Date.now()));
    const nagAlarms = await alarmsAt(nags, fireAt + 60_000 - 1_000);
    const nagEntries = await botEntries(nags);
    const replies = nagEntries.slice(0, JOBS).map((e) => Date.parse(e.at));
    const spread = (Math.max(...replies) - Math.min(...replies)) / 1000;
    const nagMessages = nagEntries.length;
    await worker.call("/bench/mode", { countRows: false });

    const rows = (alarms) => alarms.reduce((n, a) => n + (a.rowsWritten ?? 0), 0);
    const say = (label, alarms, messages) =>
      console.log(
        `    ${label}: ${alarms.length} alarm run(s) sent them, ${rows(alarms)} rows written (${(rows(alarms) / JOBS).toFixed(1)} per job); ${messages} messages`,
      );
    console.log(`  ${JOBS} jobs in a chat; the chat's one alarm serves them all, armed at the soonest thing due (no alarm per job)`);
    say(`${JOBS} notices an hour before (before: ["PT1H"]), all due at one instant`, noticeAlarms, noticeMessages);
    say(
      `${JOBS} second copies, each a minute after its reply (repeat: every PT1M, once; the echo agent's ${JOBS} replies came over ${spread.toFixed(1)} s)`,
      nagAlarms,
      nagMessages - JOBS,
    );
    return { notices: { alarms: noticeAlarms.length, rows: rows(noticeAlarms) }, nags: { alarms: nagAlarms.length, rows: rows(nagAlarms) } };
  } finally {
    await worker.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", ".bench");
  await reminderBench({ out, dist: bundleFireWorker(out) });
}
