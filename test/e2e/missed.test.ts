/**
 * Missed runs across a real outage (issue 35, docs/time.md#missed-runs): the Worker under `wrangler dev` is killed
 * (SIGKILL) with hourly jobs of each policy on its state, and served again on the same state three and a half hours
 * later by the chats' own clock (CUCKOO_DEV_CLOCK_OFFSET, the local dev clock: nothing waits real hours). What each
 * policy did is read back through the admin API, as the owner sees it, with the echo agent answering in transcript
 * mode: once ran the latest, late, its line counting the four; skip ran none and recorded four; all ran each of the
 * four in order; ask asked, and Run now ran the latest once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type Worker, waitFor } from "./harness.js";

const HOUR = 3_600_000;
/** One chat per policy (transcript mode: no bot token). */
const CHATS = { once: "983000001", skip: "983000002", all: "983000003", ask: "983000004" } as const;
type Policy = keyof typeof CHATS;

let worker: Worker;
/** The chats' clock offset, read by each start of `wrangler dev`. */
let offsetSeconds = 0;
const ids = {} as Record<Policy, string>;
let due = 0;

type Entry = { role: string; text: string; buttons?: { text: string; data: string }[][] };
type Run = { runId: string; status: string | null; detail: string | null; late: boolean; state: string };

const bot = async (chatId: string): Promise<Entry[]> =>
  ((await worker.send("GET", `/admin/chats/${chatId}/messages?limit=100`)).body.messages as Entry[]).filter((e) => e.role === "bot");
const runs = async (policy: Policy): Promise<Run[]> => (await worker.send("GET", `/admin/chats/${CHATS[policy]}/jobs/${ids[policy]}/runs`)).body.runs as Run[];
const hm = (h: number) => new Date(due + h * HOUR).toISOString().slice(11, 16);

beforeAll(async () => {
  // The chats' clock starts at 08:10 UTC of the next day: the runs and the 3½ hours after them fall on one day in the
  // chats' zone (UTC), whatever the hour the suite runs at (a message names a time of another day with its date).
  const now = new Date();
  offsetSeconds = Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 8, 10) - now.getTime()) / 1000);
  worker = await startWorker({ vars: () => ({ CUCKOO_DEV_CLOCK_OFFSET: String(offsetSeconds) }) });
  for (const policy of Object.keys(CHATS) as Policy[]) {
    const res = await worker.send("POST", `/admin/chats/${CHATS[policy]}/jobs`, {
      name: "Log digest",
      kind: "prompt",
      cron: "0 * * * *",
      text: "Digest the logs",
      missed: policy,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[policy] = res.body.job.id;
    due = Date.parse(res.body.job.nextRunAt);
  }
  // The outage: killed before the first run, served again when the chats' clock is 3½ hours past it.
  await worker.crash();
  offsetSeconds = Math.ceil((due + 3.5 * HOUR - Date.now()) / 1000);
  await worker.restart();
  // The first request to each chat wakes its object, which arms its alarm at once: the jobs are past due.
  for (const chatId of Object.values(CHATS)) expect((await worker.send("GET", `/admin/chats/${chatId}/jobs`)).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await worker?.stop();
});

describe.concurrent("hourly jobs back after 3½ hours offline", () => {
  it("once: the latest ran, late, its line counting the four missed", async () => {
    const replies = await waitFor(
      "the once job's reply",
      async () => {
        const b = await bot(CHATS.once);
        return b.length > 0 ? b : undefined;
      },
      30_000,
    );
    expect(replies.map((e) => e.text)).toEqual([`4 runs were missed while the bot was offline; this is the latest (due ${hm(3)}).\nDigest the logs`]);
    const history = await runs("once");
    expect(history.map((r) => [r.runId, r.status, r.late])).toEqual([[`${ids.once}:${due + 3 * HOUR}`, "delivered", true]]);
  });

  it("skip: none ran; the four were recorded skipped (missed)", async () => {
    const history = await waitFor(
      "four skipped runs",
      async () => {
        const r = await runs("skip");
        return r.length === 4 ? r : undefined;
      },
      30_000,
    );
    expect(history.map((r) => [r.runId, r.status, r.detail])).toEqual([3, 2, 1, 0].map((h) => [`${ids.skip}:${due + h * HOUR}`, "skipped", "missed"]));
    expect(await bot(CHATS.skip)).toEqual([]);
  });

  it("all: each of the four ran, in order, one after another", async () => {
    const history = await waitFor(
      "four runs, each settled",
      async () => {
        const r = await runs("all");
        return r.length === 4 && r.every((x) => x.state === "settled") ? r : undefined;
      },
      60_000,
    );
    expect(history.map((r) => [r.runId, r.status, r.late])).toEqual([3, 2, 1, 0].map((h) => [`${ids.all}:${due + h * HOUR}`, "delivered", true]));
    expect((await bot(CHATS.all)).map((e) => e.text.split("\n")[0])).toEqual(
      [0, 1, 2, 3].map((h) => expect.stringMatching(new RegExp(`^This was due at \\d+ \\w+ ${hm(h)}; the bot was offline\\.$`))),
    );
  });

  it("ask: one message with Run now and Skip; Run now ran the latest once", async () => {
    const [asked] = await waitFor(
      "the ask message",
      async () => {
        const b = await bot(CHATS.ask);
        return b.length > 0 ? b : undefined;
      },
      30_000,
    );
    expect(asked!.text).toBe(
      `⏰ **Log digest** (\`${ids.ask}\`) missed 4 runs while the bot was offline: ${hm(0)}, ${hm(1)}, ${hm(2)} and ${hm(3)}. Run it now?`,
    );
    expect(await runs("ask")).toEqual([]);
    const runNow = asked!.buttons![0]![0]!;
    expect((await worker.send("POST", `/admin/chats/${CHATS.ask}/messages`, { press: runNow.data })).body).toEqual({
      answer: `Running ${ids.ask} (Log digest) now.`,
    });
    const history = await waitFor(
      "the latest run, settled",
      async () => {
        const r = await runs("ask");
        return r.length === 1 && r[0]!.state === "settled" ? r : undefined;
      },
      30_000,
    );
    expect(history.map((r) => [r.runId, r.status, r.late])).toEqual([[`${ids.ask}:${due + 3 * HOUR}`, "delivered", true]]);
    expect((await worker.send("POST", `/admin/chats/${CHATS.ask}/messages`, { press: runNow.data })).body).toEqual({ answer: "This was answered already." });
  });
});
