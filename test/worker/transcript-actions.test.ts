/**
 * The same actions in transcript mode, through the admin API as the page uses it (issue 25): a job's message in
 * `GET …/messages` with its buttons and its HTML as Telegram renders it (anything that is not Telegram's markup
 * escaped), `POST …/messages { press }` acting once and changing the entry's buttons, `{ text, replyTo }` as a
 * reply, `POST …/jobs/:id/skip`, `GET`/`PUT …/quiet`, and the tools' `update` and `skip` actions. The chat's clock
 * stands still at Wed 12 May 2027 14:30 in Berlin. Chat ids 5530000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { type TranscriptEntry, transcriptSchema } from "../../src/schemas/chats";
import { type Job, jobListSchema } from "../../src/schemas/jobs";
import { toolReplySchema } from "../../src/schemas/tools";
import { feed } from "./agent-helpers";
import { advanceTo, chatIds, historyOf, must, queued, type Stub, send, spyQueue } from "./helpers";
import { aheadOfRuntime } from "./telegram-helpers";

const newChat = chatIds(5_530_000);
const MAY = Date.UTC(2027, 4, 12, 12, 30);
const MIN = 60_000;

async function chatAt(at = MAY): Promise<{ chatId: string; stub: Stub }> {
  const chat = newChat();
  await spyQueue(chat.stub);
  await aheadOfRuntime(chat.stub);
  await chat.stub.testFreezeClock(at);
  await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
  return chat;
}

const messages = async (chatId: string): Promise<TranscriptEntry[]> =>
  (await send("GET", `/admin/chats/${chatId}/messages?limit=100`).as(transcriptSchema())).body.messages;
const post = (chatId: string, body: unknown) => send("POST", `/admin/chats/${chatId}/messages`, body);

/** A job fired at its next run and its prompt handed to the echo agent: the run's key. */
async function fire(chat: { chatId: string; stub: Stub }, job: Job): Promise<string> {
  await advanceTo(chat.stub, Date.parse(job.nextRunAt!));
  const before = (await queued(chat.stub)).length;
  expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
  const message = (await queued(chat.stub))
    .slice(before)
    .map((s) => s.body as PromptMessage)
    .find((m) => m.jobId === job.id)!;
  await feed([message]);
  return message.key;
}

describe("a job's message in the transcript", () => {
  it("shows its buttons and its HTML as Telegram renders it, with nothing of the text taken for markup", async () => {
    const chat = await chatAt();
    const text = "**Stretch** now: <script>alert(1)</script> <img src=x onerror=alert(1)> `code` [more](https://example.com/a?b=1&c=2)";
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Stretch", kind: "prompt", text, delay: "PT5M" }, "user"));
    const runId = await fire(chat, job);
    const bot = (await messages(chat.chatId)).find((e) => e.role === "bot")!;
    expect(bot.text).toBe(text);
    expect(bot.html).toBe(
      '<b>Stretch</b> now: &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; <code>code</code> <a href="https://example.com/a?b=1&amp;c=2">more</a>',
    );
    expect(bot.buttons).toEqual([
      [{ text: "Done", data: `d:${runId}` }],
      [
        { text: "10 min", data: `s:10:${runId}` },
        { text: "1 h", data: `s:60:${runId}` },
        { text: "Tomorrow 9:00", data: `s:t:${runId}` },
      ],
    ]);
    // Only what the chat saw is rendered: a user's entry keeps its text alone.
    expect((await messages(chat.chatId)).filter((e) => e.html !== undefined).map((e) => e.role)).toEqual(["bot"]);
  });

  it("takes a press once: a snooze answers, makes the copy and replaces the entry's buttons with its line", async () => {
    const chat = await chatAt();
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Stretch", kind: "prompt", text: "Stretch.", delay: "PT5M" }, "user"));
    const runId = await fire(chat, job);
    expect(await post(chat.chatId, { press: `s:10:${runId}` })).toEqual({ status: 200, body: { answer: "Snoozed until 14:45." } });
    const bot = (await messages(chat.chatId)).find((e) => e.role === "bot")!;
    expect(bot.buttons).toEqual([[{ text: "⏰ Snoozed until 14:45", data: `a:${runId}` }]]);
    for (const press of [`s:10:${runId}`, `a:${runId}`, `d:${runId}`]) {
      expect(await post(chat.chatId, { press }), press).toEqual({ status: 200, body: { answer: "This was answered already." } });
    }
    const jobs = (await send("GET", `/admin/chats/${chat.chatId}/jobs`).as(jobListSchema())).body.jobs;
    expect(jobs.map((j) => [j.name, j.schedule])).toEqual([["Stretch", { at: new Date(MAY + 15 * MIN).toISOString() }]]);
  });
});

describe("a message written in reply to an entry (`replyTo`)", () => {
  it("names the job of the message it replies to, and carries its text to the agent, quoted", async () => {
    const chat = await chatAt();
    const job = await must(chat.stub.createJob(chat.chatId, { name: "News", kind: "prompt", text: "News.", cron: "0 15 * * *" }, "user"));
    await fire(chat, job);
    const bot = (await messages(chat.chatId)).find((e) => e.role === "bot")!;
    expect((await post(chat.chatId, { text: "/skip", replyTo: bot.id })).status).toBe(202);
    expect((await messages(chat.chatId)).at(-1)!.text).toMatch(/^Skipped 13 May 15:00\.\n/);
    expect((await historyOf(chat.stub, chat.chatId, job.id)).map((r) => r.detail)).toEqual(["skipped by hand", null]);
    expect((await post(chat.chatId, { text: "and tomorrow?", replyTo: bot.id })).status).toBe(202);
    const prompt = (await queued(chat.stub))
      .map((s) => s.body as PromptMessage)
      .filter((m) => m.source === "user")
      .at(-1)!;
    expect(prompt.text).toBe("> News.\n\nand tomorrow?");
  });

  it("is refused with a sentence when it names no entry, or goes with a press", async () => {
    const chat = await chatAt();
    const noEntry = `"replyTo" must be the id of an entry in this chat's transcript (it keeps the last 500), such as "12".`;
    expect(await post(chat.chatId, { text: "/skip", replyTo: "999" })).toEqual({ status: 400, body: { error: { code: "bad_request", message: noEntry } } });
    expect(await post(chat.chatId, { text: "/skip", replyTo: "x1" })).toEqual({ status: 400, body: { error: { code: "bad_request", message: noEntry } } });
    expect(await post(chat.chatId, { press: "d:k7m2q:1", replyTo: "1" })).toEqual({
      status: 400,
      body: {
        error: {
          code: "bad_request",
          message: `"replyTo" goes with "text": a message written in reply to an entry, such as {"text": "/skip", "replyTo": "12"}.`,
        },
      },
    });
    expect(await messages(chat.chatId)).toEqual([]);
  });
});

describe("POST /admin/chats/:chatId/jobs/:id/skip", () => {
  it("passes over a recurring job's next run and answers the job; a one-off is refused with a sentence", async () => {
    const chat = await chatAt();
    const daily = await must(chat.stub.createJob(chat.chatId, { name: "News", kind: "prompt", text: "News.", cron: "0 15 * * *" }, "admin"));
    const skipped = await send("POST", `/admin/chats/${chat.chatId}/jobs/${daily.id}/skip`);
    expect(skipped).toEqual({ status: 200, body: { job: { ...daily, nextRunAt: new Date(Date.UTC(2027, 4, 13, 13, 0)).toISOString() } } });
    expect(await historyOf(chat.stub, chat.chatId, daily.id)).toMatchObject([
      { runId: `${daily.id}:${Date.UTC(2027, 4, 12, 13, 0)}`, status: "skipped", detail: "skipped by hand", manual: false },
    ]);
    const once = await must(chat.stub.createJob(chat.chatId, { name: "Call", kind: "prompt", text: "Call.", delay: "PT2H" }, "admin"));
    expect(await send("POST", `/admin/chats/${chat.chatId}/jobs/${once.id}/skip`)).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: `${once.id} runs once; cancel or edit it instead.` } },
    });
    expect((await send("POST", `/admin/chats/${chat.chatId}/jobs/zzzzz/skip`)).status).toBe(404);
    expect((await send("POST", `/admin/chats/${chat.chatId}/jobs/${daily.id}/skip`, { at: "now" })).status).toBe(400);
  });
});

describe("GET and PUT /admin/chats/:chatId/quiet", () => {
  it("reads and sets the chat's quiet hours, or clears them with null", async () => {
    const { chatId } = await chatAt();
    const path = `/admin/chats/${chatId}/quiet`;
    expect(await send("GET", path)).toEqual({ status: 200, body: { quiet: null } });
    expect(await send("PUT", path, { quiet: { from: "22:00", to: "07:00" } })).toEqual({ status: 200, body: { quiet: { from: "22:00", to: "07:00" } } });
    expect(await send("GET", path)).toEqual({ status: 200, body: { quiet: { from: "22:00", to: "07:00" } } });
    expect(await send("PUT", path, { quiet: null })).toEqual({ status: 200, body: { quiet: null } });
  });

  it("refuses what is not quiet hours with one sentence, and keeps what it had", async () => {
    const { chatId } = await chatAt();
    const path = `/admin/chats/${chatId}/quiet`;
    await send("PUT", path, { quiet: { from: "23:00", to: "06:00" } });
    const bad = (message: string) => ({ status: 400, body: { error: { code: "bad_request", message } } });
    expect(await send("PUT", path, { quiet: { from: "25:00", to: "07:00" } })).toEqual(bad(`"quiet.from" must be a time of day as HH:mm, such as "22:00".`));
    expect(await send("PUT", path, { quiet: { from: "22:00", to: "7:00" } })).toEqual(bad(`"quiet.to" must be a time of day as HH:mm, such as "07:00".`));
    expect(await send("PUT", path, { quiet: { from: "22:00", to: "22:00" } })).toEqual(
      bad(`Quiet hours must end at another time than they start, such as { "from": "22:00", "to": "07:00" }.`),
    );
    expect((await send("PUT", path, {})).status).toBe(400);
    expect((await send("PUT", path, { quiet: { from: "22:00", to: "07:00", days: 5 } })).status).toBe(400);
    expect(await send("GET", path)).toEqual({ status: 200, body: { quiet: { from: "23:00", to: "06:00" } } });
  });
});

describe("the tools' update and skip actions", () => {
  const tool = (chatId: string, body: unknown) => send("POST", `/tools/${chatId}/schedule`, body).as(toolReplySchema());

  it("update changes a job in place and skip passes over its next run, each answering the job", async () => {
    const chat = await chatAt();
    const job = await must(chat.stub.createJob(chat.chatId, { name: "News", kind: "prompt", text: "News.", cron: "0 15 * * *" }, "agent"));
    const updated = await tool(chat.chatId, { action: "update", id: job.id.toUpperCase(), cron: "30 15 * * *", silent: true });
    expect(updated.body).toMatchObject({ ok: true, data: { job: { id: job.id, schedule: { cron: "30 15 * * *" }, silent: true } } });
    // The tools' texts are written at the edge's now (the machine's), not at the object's frozen clock: times as <t>.
    const lines = (text: string) => text.split("\n").map((l) => l.replace(/\d{1,2} \w{3} (\d{4} )?|\d{2}:\d{2}/g, "<t>"));
    const NOW_LINE = /^Now: \w{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Berlin, UTC\+0[12]:00\)$/;
    const [changed, next, now] = updated.body.text.split("\n");
    expect(lines(changed ?? "")).toEqual([`Changed \`${job.id}\` 💬 News · every day at <t> · next <t><t>`]);
    expect(next).toMatch(/^Next runs: [^,]+, [^,]+, [^,]+\.$/);
    expect(now).toMatch(NOW_LINE);
    const skipped = await tool(chat.chatId, { action: "skip", id: job.id });
    expect(skipped.body).toMatchObject({ ok: true, data: { job: { id: job.id, nextRunAt: new Date(Date.UTC(2027, 4, 13, 13, 30)).toISOString() } } });
    expect(lines(skipped.body.text).slice(0, 2)).toEqual(["Skipped <t><t>; next <t><t>.", `\`${job.id}\` 💬 News · every day at <t> · next <t><t>`]);
    expect(skipped.body.text.split("\n")[2]).toMatch(NOW_LINE);
  });

  it("answers an update with nothing to change, or a field an edit does not take, with a sentence", async () => {
    const chat = await chatAt();
    const job = await must(chat.stub.createJob(chat.chatId, { name: "News", kind: "prompt", text: "News.", cron: "0 15 * * *" }, "agent"));
    expect((await tool(chat.chatId, { action: "update", id: job.id })).body).toEqual({
      ok: false,
      text: `update needs a field to change besides "id", such as "cron": "30 9 * * 1-5" or "text": "Summarise my inbox".`,
    });
    expect((await tool(chat.chatId, { action: "update", id: job.id, kind: "watcher" })).body.text).toMatch(
      /^"kind" does not apply to "update", which takes only "id", "name", /,
    );
    expect((await tool(chat.chatId, { action: "update", cron: "0 9 * * *" })).body).toEqual({ ok: false, text: `"id" is required for update; see "list".` });
    expect((await tool(chat.chatId, { action: "skip", id: "zzzzz" })).body).toEqual({ ok: false, text: "No job zzzzz in this chat." });
  });
});
