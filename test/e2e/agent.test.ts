/**
 * The agent path end to end (issue 4): the real Worker under `wrangler dev`, its alarm, the `prompts` queue,
 * the run gate and the built-in echo agent, seen only through the admin API as a client sees it, on the tier's
 * shared Worker (`sharedWorker("dev")`). Each test has its own chat. Cron timing is covered by the workerd tests: a minute is too long to wait here.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { sharedWorker, type Worker, waitFor } from "./harness.js";

type Entry = { id: string; at: string; role: "user" | "bot" | "prompt"; source: string; text: string; jobId?: string; runId?: string };

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The local-time header of a UTC chat at `ms`: `[Sat 2026-09-26 08:00 UTC]`. */
function utcHeader(ms: number): string {
  const d = new Date(ms);
  return `[${WEEKDAYS[d.getUTCDay()]} ${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC]`;
}

/**
 * The header the agent saw is stamped when the consumer handles the prompt, an RPC before the entries are
 * written at `at`: the minute of `at`, or the one before it when handling straddled a minute's end.
 */
function headersAround(at: string): string[] {
  const ms = Date.parse(at);
  return [...new Set([utcHeader(ms), utcHeader(ms - 2_000)])];
}

let worker: Worker;

beforeAll(async () => {
  worker = await sharedWorker("dev");
});

async function transcript(chatId: string): Promise<Entry[]> {
  const res = await worker.send("GET", `/admin/chats/${chatId}/messages`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.chatId).toBe(chatId);
  return res.body.messages as Entry[];
}

/** The transcript once it holds a bot entry (at most 20 s), read again after a short quiet spell. */
async function transcriptAfterReply(chatId: string): Promise<Entry[]> {
  await waitFor(
    () => `no bot entry in chat ${chatId}; wrangler's output ends:\n${worker.log()}`,
    async () => {
      const messages = await transcript(chatId);
      return messages.some((m) => m.role === "bot") ? messages : undefined;
    },
  );
  // A duplicate reply would follow within milliseconds (a redelivery is immediate with no retry delay).
  await new Promise((resolve) => setTimeout(resolve, 500));
  return transcript(chatId);
}

describe("the agent path under wrangler dev", () => {
  it("fires a one-off a few seconds ahead: one prompt, one echo reply, and the job gone after settling", async () => {
    const chatId = "700000001";
    const at = new Date(Date.now() + 3_000).toISOString();
    const created = await worker.send("POST", `/admin/chats/${chatId}/jobs`, { name: "Stretch", kind: "prompt", at, text: "Time to stretch." });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = created.body.job;
    expect(job).toMatchObject({ chatId, name: "Stretch", kind: "prompt", category: "one-time", schedule: { at }, nextRunAt: at, running: false });

    const messages = await transcriptAfterReply(chatId);
    const runId = `${job.id}:${Date.parse(at)}`;
    expect(messages).toEqual([
      { id: expect.any(String), at: expect.any(String), role: "prompt", source: "job", text: expect.any(String), jobId: job.id, runId },
      {
        id: expect.any(String),
        at: expect.any(String),
        role: "bot",
        source: "job",
        text: "Time to stretch.",
        jobId: job.id,
        runId,
        // The buttons Telegram shows under a one-off's message, kept in the transcript for the chat panel, and
        // the message as Telegram renders it.
        buttons: [
          [{ text: "Done", data: `d:${runId}` }],
          [
            { text: "10 min", data: `s:10:${runId}` },
            { text: "1 h", data: `s:60:${runId}` },
            { text: "Tomorrow 9:00", data: `s:t:${runId}` },
          ],
        ],
        html: "Time to stretch.",
      },
    ]);
    const [prompt, bot] = messages as [Entry, Entry];
    expect(Date.parse(bot.at)).toBeGreaterThanOrEqual(Date.parse(at));
    const header = prompt.text.split("\n")[0];
    expect(headersAround(prompt.at)).toContain(header);
    expect(prompt.text).toBe(`${header}\n[Scheduled job "Stretch" (${job.id})]\nTime to stretch.`);

    // Settling follows delivery: the finished one-off is deleted then.
    const gone = await waitFor(`job ${job.id} deleted after settling`, async () => {
      const res = await worker.send("GET", `/admin/chats/${chatId}/jobs/${job.id}`);
      return res.status === 404 ? res : undefined;
    });
    expect(gone.body).toEqual({ error: { code: "not_found", message: `No job ${job.id} in this chat.` } });
    expect(await transcript(chatId)).toEqual(messages);
  });

  it("runs a cron job now: one reply, a manual delivered run, and the schedule untouched", async () => {
    const chatId = "700000002";
    // 1 January 00:00 UTC: never due while the test runs.
    const created = await worker.send("POST", `/admin/chats/${chatId}/jobs`, { name: "New year", kind: "prompt", cron: "0 0 1 1 *", text: "Happy new year!" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = created.body.job;
    const nextRunAt = job.nextRunAt;
    expect(nextRunAt).toBe(`${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`);

    const ran = await worker.send("POST", `/admin/chats/${chatId}/jobs/${job.id}/run`);
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    expect(ran.body.job).toMatchObject({ id: job.id, nextRunAt });

    const messages = await transcriptAfterReply(chatId);
    expect(messages.map((m) => [m.role, m.source, m.jobId])).toEqual([
      ["prompt", "job", job.id],
      ["bot", "job", job.id],
    ]);
    const [prompt, bot] = messages as [Entry, Entry];
    expect(bot.text).toBe("Happy new year!");
    expect(prompt.runId).toMatch(new RegExp(`^${job.id}:\\d+$`));
    expect(bot.runId).toBe(prompt.runId);
    const header = prompt.text.split("\n")[0];
    expect(headersAround(prompt.at)).toContain(header);
    expect(prompt.text).toBe(`${header}\n[Scheduled job "New year" (${job.id})]\nHappy new year!`);

    const runs = await waitFor(`run ${prompt.runId} settled`, async () => {
      const res = await worker.send("GET", `/admin/chats/${chatId}/jobs/${job.id}/runs`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.runs.length > 0 && res.body.runs.every((r: { state: string }) => r.state === "settled") ? res.body.runs : undefined;
    });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: prompt.runId, manual: true, state: "settled", status: "delivered", detail: null });

    const after = await worker.send("GET", `/admin/chats/${chatId}/jobs/${job.id}`);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.job).toMatchObject({ id: job.id, enabled: true, running: false, nextRunAt });
    expect(await transcript(chatId)).toEqual(messages);
  });

  it("answers a user message with the no-model sentence, once, after the user's entry", async () => {
    const chatId = "700000003";
    const posted = await worker.send("POST", `/admin/chats/${chatId}/messages`, { text: "Hello there" });
    expect(posted.status, JSON.stringify(posted.body)).toBe(202);
    expect(posted.body).toEqual({ messageId: expect.stringMatching(/^\d+$/) });

    const messages = await transcriptAfterReply(chatId);
    expect(messages).toEqual([
      { id: posted.body.messageId, at: expect.any(String), role: "user", source: "admin", text: "Hello there" },
      { id: expect.any(String), at: expect.any(String), role: "prompt", source: "admin", text: expect.any(String) },
      {
        id: expect.any(String),
        at: expect.any(String),
        role: "bot",
        source: "admin",
        text: "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum",
        html: "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum",
      },
    ]);
    const prompt = messages[1] as Entry;
    const header = prompt.text.split("\n")[0];
    expect(headersAround(prompt.at)).toContain(header);
    expect(prompt.text).toBe(`${header}\nHello there`);
  });
});
