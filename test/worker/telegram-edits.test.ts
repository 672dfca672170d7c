/**
 * Changing a job from the chat (docs/api.md#patch-adminchatschatidjobsid, docs/telegram.md#edit-id-when-edit-id-text-new-text, docs/telegram.md#replies-and-edited-messages, docs/telegram.md#quiet; issue
 * 25), through the webhook and the Bot API stub: `/edit <id> <when>` (a one-off's time as /remind reads it, a
 * recurring job's as /every reads it), `/edit <id> text …`, `/skip <id>`, each keeping the job's id, history,
 * memory references and last result; sent as a reply to one of a job's messages (or to the command that made
 * it), `/edit`, `/skip` and `/cancel` need no id; `/remind <when>` as a reply reminds of the message replied to;
 * a message to the agent carries the one it replies to, quoted; an edited `/remind` or `/every` edits its job;
 * `/quiet`. The chat's clock stands still at Wed 12 May 2027 14:30 in Berlin. Chat ids 5520000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { Job } from "../../src/schemas/jobs";
import { renderTelegramHtml } from "../../src/telegram/render";
import { feed } from "./agent-helpers";
import { advanceTo, chatIds, historyOf, jobsOf, must, transcript } from "./helpers";
import { type Call, delivered, editedUpdate, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_520_000);
const bot = new TestBot("edits");
const BERLIN = "Europe/Berlin";
const MIN = 60_000;
// Wed 12 May 2027 14:30 in Berlin (CEST, UTC+2).
const MAY = Date.UTC(2027, 4, 12, 12, 30);

async function chatAt(at = MAY): Promise<TelegramChat> {
  const chat = await telegramChat(bot, newChat().chatId);
  await chat.stub.testFreezeClock(at);
  await must(chat.stub.setTimeZone(chat.chatId, BERLIN));
  return chat;
}

/**
 * Sends `text` as the user (in reply to `replyTo` when given) and returns the message's Telegram id and the
 * bot's replies to it, as Markdown rendered the way they were sent.
 */
async function say(chat: TelegramChat, text: string, replyTo?: { message_id: number; text?: string }): Promise<{ messageId: number; replies: string[] }> {
  const before = (await bot.sends(chat.chatId)).length;
  const update = textUpdate(chat.chatId, text, undefined, replyTo);
  expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
  const replies = (await delivered(bot, chat)).slice(before).map((c) => c.params.text as string);
  return { messageId: update.message.message_id, replies };
}

/** The one reply to `text`, as the Markdown it renders from. */
async function reply(chat: TelegramChat, text: string, replyTo?: { message_id: number; text?: string }): Promise<string> {
  const { replies } = await say(chat, text, replyTo);
  expect(replies, `the replies to ${text}`).toHaveLength(1);
  return replies[0]!;
}

/** A job fired and its message sent (the echo agent delivers its text): the message as Telegram got it. */
async function fired(chat: TelegramChat, job: Job): Promise<{ runId: string; sent: Call }> {
  await advanceTo(chat.stub, Date.parse((await must(chat.stub.getJob(chat.chatId, job.id))).nextRunAt!));
  const before = chat.sent!.length;
  expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
  const message = chat
    .sent!.slice(before)
    .map((s) => s.body as PromptMessage)
    .find((m) => m.jobId === job.id)!;
  await feed([message]);
  return { runId: message.key, sent: (await delivered(bot, chat)).at(-1)! };
}

const html = renderTelegramHtml;

describe("/edit", () => {
  it("moves a one-off to a time read as /remind reads it, and changes its text (and name) with `text`", async () => {
    const chat = await chatAt();
    await say(chat, "/remind 2h call mum");
    const [job] = await jobsOf(chat);
    expect(await reply(chat, `/edit ${job!.id} tomorrow 10:00`)).toBe(
      html(`Changed \`${job!.id}\` 💬 call mum · once 13 May 10:00\n⏰ Thu 13 May 10:00 (Europe/Berlin), in 19 h 30 min`),
    );
    expect(await reply(chat, `/edit ${job!.id.toUpperCase()} text call dad`)).toBe(
      html(`Changed \`${job!.id}\` 💬 call dad · once 13 May 10:00\n⏰ Thu 13 May 10:00 (Europe/Berlin), in 19 h 30 min`),
    );
    expect(await jobsOf(chat)).toMatchObject([{ id: job!.id, name: "call dad", text: "call dad", schedule: { at: "2027-05-13T08:00:00.000Z" } }]);
  });

  it("reschedules a recurring job as /every reads it, keeping its id, history, memory references and last result", async () => {
    const chat = await chatAt();
    const record = await must(chat.stub.createMemory(chat.chatId, { title: "Notes", body: "Yesterday's." }));
    const job = await must(
      chat.stub.createJob(chat.chatId, { name: "News", kind: "prompt", text: "News.", cron: "0 15 * * *", memoryRefs: [record.id] }, "user"),
    );
    await fired(chat, job);
    const before = await must(chat.stub.getJob(chat.chatId, job.id));
    const history = await historyOf(chat.stub, chat.chatId, job.id);
    expect(before.lastResult?.status).toBe("delivered");
    expect(await reply(chat, `/edit ${job.id} weekdays at 8:30`)).toBe(
      html(
        `Changed \`${job.id}\` 💬 News · every weekday at 08:30 · next 13 May 08:30\n🔁 every weekday at 08:30 (Europe/Berlin) · \`30 8 * * 1-5\`\nNext: Thu 13 May 08:30, Fri 14 May 08:30, Mon 17 May 08:30`,
      ),
    );
    const after = await must(chat.stub.getJob(chat.chatId, job.id));
    expect(after).toEqual({ ...before, schedule: { cron: "30 8 * * 1-5" }, nextRunAt: "2027-05-13T06:30:00.000Z" });
    expect(after.memoryRefs).toEqual([record.id]);
    expect(await historyOf(chat.stub, chat.chatId, job.id)).toEqual(history);
  });

  it("changes only the end with until, a number of runs or no end, keeping the schedule, id and next run", async () => {
    const chat = await chatAt();
    await say(chat, "/every weekday at 9 standup");
    const [job] = await jobsOf(chat);
    const id = job!.id;
    const first = async (text: string) => (await reply(chat, text)).split("\n")[0];
    const line = `Changed \`${id}\` 💬 standup · every weekday at 09:00 · next 13 May 09:00`;
    // until March ends when March begins: the end of 29 February 2028, the next March being 2028's.
    expect(await first(`/edit ${id} until March`)).toBe(html(`${line} · until 29 Feb 2028`));
    expect(await jobsOf(chat)).toMatchObject([{ id, schedule: { cron: "0 9 * * 1-5" }, until: "2028-02-29T23:59", runsLeft: null }]);
    expect(await first(`/edit ${id} 10 times`)).toBe(html(`${line} · 10 runs left · until 29 Feb 2028`));
    expect(await first(`/edit ${id} until 31 may`)).toBe(html(`${line} · 10 runs left · until 31 May`));
    expect(await jobsOf(chat)).toMatchObject([{ id, until: "2027-05-31T23:59", runsLeft: 10, nextRunAt: "2027-05-13T07:00:00.000Z" }]);
    expect(await first(`/edit ${id} no end`)).toBe(html(line));
    expect(await jobsOf(chat)).toMatchObject([{ id, schedule: { cron: "0 9 * * 1-5" }, until: null, runsLeft: null }]);
    expect(await reply(chat, `/edit ${id} until yesterday`)).toBe(`"until" must be in the future; 2027-05-11 23:59 in Europe/Berlin has passed.`);
    await say(chat, "/remind 2h call mum");
    const once = (await jobsOf(chat)).find((j) => j.id !== id)!;
    expect(await reply(chat, `/edit ${once.id} until March`)).toBe(
      `${once.id} runs once, so it has no end to change; to move it, send /edit ${once.id} &lt;when&gt;.`,
    );
  });

  it("says what was not understood, with examples of /edit, and changes nothing", async () => {
    const chat = await chatAt();
    await say(chat, "/remind 2h call mum");
    const [job] = await jobsOf(chat);
    const id = job!.id;
    const usage =
      "Usage: /edit &lt;id&gt; &lt;when&gt;, /edit &lt;id&gt; text &lt;new text&gt; or /edit &lt;id&gt; missed once|skip|all|ask (see /jobs); as a reply to a job's message, /edit &lt;when&gt;.";
    expect(await reply(chat, "/edit")).toBe(usage);
    expect(await reply(chat, `/edit ${id}`)).toBe(usage);
    expect(await reply(chat, "/edit zzzzz 2h")).toBe("No job zzzzz in this chat.");
    expect(await reply(chat, `/edit ${id} tomorow 9`)).toBe(`I couldn't read "tomorow" as a time. Try /edit ${id} tomorrow 9:00 or /edit ${id} 2h.`);
    expect(await reply(chat, `/edit ${id} 2026-01-01 09:00`)).toBe(
      `"2026-01-01 09:00" is in the past: Thu 1 Jan 2026 09:00 (Europe/Berlin) was 496 days ago. Try /edit ${id} 2027-05-13 09:00 or /edit ${id} 2h.`,
    );
    expect(await reply(chat, `/edit ${id} 3h call dad`)).toBe(
      `"call dad" is not part of a time. To change the job's text, send /edit ${id} text call dad; to change its time, send the time alone.`,
    );
    expect(await jobsOf(chat)).toMatchObject([{ id, text: "call mum", schedule: { at: new Date(MAY + 120 * MIN).toISOString() } }]);
  });
});

describe("/skip", () => {
  it("passes over a recurring job's next run, recorded as skipped by hand; a one-off runs once", async () => {
    const chat = await chatAt();
    await say(chat, "/every weekdays at 8:30 news");
    await say(chat, "/remind 2h call mum");
    const jobs = await jobsOf(chat);
    const daily = jobs.find((j) => "cron" in j.schedule)!;
    const once = jobs.find((j) => "at" in j.schedule)!;
    expect(await reply(chat, `/skip ${daily.id}`)).toBe(
      html(
        `Skipped 13 May 08:30.\n\`${daily.id}\` 💬 news · every weekday at 08:30 · next 14 May 08:30\nNext: Fri 14 May 08:30, Mon 17 May 08:30, Tue 18 May 08:30`,
      ),
    );
    expect(await historyOf(chat.stub, chat.chatId, daily.id)).toMatchObject([
      { runId: `${daily.id}:${Date.UTC(2027, 4, 13, 6, 30)}`, status: "skipped", detail: "skipped by hand", state: "settled" },
    ]);
    expect(await reply(chat, `/skip ${once.id}`)).toBe(`${once.id} runs once; cancel or edit it instead.`);
    expect(await reply(chat, "/skip")).toBe("Usage: /skip &lt;id&gt; (see /jobs).");
    await say(chat, `/pause ${daily.id}`);
    expect(await reply(chat, `/skip ${daily.id}`)).toBe(`${daily.id} is paused, so it has no next run to skip; resume it first.`);
  });
});

describe("/skip and /edit on a recurrence rule", () => {
  it("pass over a rule job's next run and move a cron job onto a rule, keeping the job's id", async () => {
    const chat = await chatAt();
    const rule = await must(
      chat.stub.createJob(
        chat.chatId,
        { name: "Review", kind: "prompt", text: "Review.", rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2027-05-18T10:00" } as never,
        "user",
      ),
    );
    // Tuesdays 10:00 in Berlin (CEST): 18 May, then 1 June.
    const may18 = Date.UTC(2027, 4, 18, 8, 0);
    const june1 = Date.UTC(2027, 5, 1, 8, 0);
    expect(rule.nextRunAt).toBe(new Date(may18).toISOString());
    const skipped = (await reply(chat, `/skip ${rule.id}`)).split("\n");
    expect([skipped[0], skipped[2]]).toEqual(["Skipped 18 May 10:00.", "Next: Tue 1 Jun 10:00, Tue 15 Jun 10:00, Tue 29 Jun 10:00"]);
    expect(await must(chat.stub.getJob(chat.chatId, rule.id))).toMatchObject({ nextRunAt: new Date(june1).toISOString() });
    expect((await historyOf(chat.stub, chat.chatId, rule.id)).map((r) => [r.runId, r.detail])).toEqual([[`${rule.id}:${may18}`, "skipped by hand"]]);

    const daily = await must(chat.stub.createJob(chat.chatId, { name: "Daily", kind: "prompt", text: "Daily.", cron: "0 9 * * *" }, "user"));
    const edited = (await reply(chat, `/edit ${daily.id} every other tuesday at 10`)).split("\n");
    expect(edited[0]).toMatch(new RegExp(`^Changed <code>${daily.id}</code> 💬 Daily · `));
    // Its words, never its RRULE: read now, "every 2 weeks on Tuesday at 10:00" is the same rule.
    expect(edited[1]).toBe("🔁 every 2 weeks on Tuesday at 10:00 (Europe/Berlin)");
    const after = await must(chat.stub.getJob(chat.chatId, daily.id));
    expect(after.schedule).toMatchObject({ rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU" });
    expect(after.id).toBe(daily.id);
  });
});

describe("a reply to one of a job's messages names the job", () => {
  it("/skip, /edit <when> and /cancel need no id", async () => {
    const chat = await chatAt();
    const daily = await must(chat.stub.createJob(chat.chatId, { name: "Standup", kind: "prompt", text: "Standup.", cron: "0 15 * * *" }, "user"));
    const { sent } = await fired(chat, daily);
    const message = { message_id: sent.messageId!, text: "Standup." };
    expect(await reply(chat, "/skip", message)).toMatch(/^Skipped 13 May 15:00\.\n/);
    expect(await reply(chat, "/edit 16:00", message)).toMatch(new RegExp(`^Changed <code>${daily.id}</code> 💬 Standup · every day at 16:00 · `));
    expect(await reply(chat, "/cancel", message)).toBe(`Cancelled ${daily.id} (Standup).`);
    expect(await jobsOf(chat)).toEqual([]);
  });

  it("and so does a reply to the /remind that made it", async () => {
    const chat = await chatAt();
    const made = await say(chat, "/remind 2h call mum");
    const [job] = await jobsOf(chat);
    expect(await reply(chat, "/edit 3h", { message_id: made.messageId, text: "/remind 2h call mum" })).toBe(
      html(`Changed \`${job!.id}\` 💬 call mum · once 17:30\n⏰ Wed 12 May 17:30 (Europe/Berlin), in 3 h`),
    );
    // In a reply, a first word that could be an id ("march") but names no job of the chat is part of the time.
    expect(await reply(chat, "/edit march 3 10:00", { message_id: made.messageId })).toBe(
      html(`Changed \`${job!.id}\` 💬 call mum · once 3 Mar 2028 10:00\n⏰ Fri 3 Mar 2028 10:00 (Europe/Berlin), in 295 days`),
    );
  });
});

describe("replies", () => {
  it("/remind <when> with no text reminds of the message replied to: its text, quoted, is the prompt", async () => {
    const chat = await chatAt();
    const text = await reply(chat, "/remind 2h", { message_id: 4242, text: "Buy milk\nand eggs" });
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({ name: "Buy milk and eggs", text: "> Buy milk\n> and eggs", schedule: { at: new Date(MAY + 120 * MIN).toISOString() } });
    expect(text).toBe(
      html(
        `Created \`${job!.id}\` 💬 Buy milk and eggs · once 16:30\nRead "2h" as the schedule and the message replied to as the text.\n⏰ Wed 12 May 16:30 (Europe/Berlin), in 2 h`,
      ),
    );
    // Without a reply it still needs its text.
    expect(await reply(chat, "/remind 2h")).toMatch(/^"2h" needs a text after it/);
  });

  it("a message to the agent that replies to another carries that message's text, quoted, before its own", async () => {
    const chat = await chatAt();
    await say(chat, "what about the second one?", { message_id: 77, text: "Two offers:\n1. Berlin\n2. Paris" });
    const prompt = chat.sent!.map((s) => s.body as PromptMessage).find((m) => m.source === "user")!;
    const expected = "> Two offers:\n> 1. Berlin\n> 2. Paris\n\nwhat about the second one?";
    expect([prompt.text, prompt.body]).toEqual([expected, expected]);
    expect((await transcript(chat.stub, chat.chatId)).filter((e) => e.role === "user").map((e) => e.text)).toEqual([expected]);
  });
});

describe("an edited message", () => {
  it("that made a job through /remind or /every edits that job, keeping its id, and answers with its line", async () => {
    const chat = await chatAt();
    const remind = await say(chat, "/remind 2h call mum");
    const every = await say(chat, "/every day at 8 news");
    // Made at the same frozen instant: told apart by their schedules.
    const made = await jobsOf(chat);
    const once = made.find((j) => "at" in j.schedule);
    const daily = made.find((j) => "cron" in j.schedule);
    const edit = async (messageId: number, text: string) => {
      const before = (await bot.sends(chat.chatId)).length;
      await postUpdate(bot.env([chat.chatId]), editedUpdate(chat.chatId, messageId, text));
      return (await delivered(bot, chat)).slice(before).map((c) => c.params.text);
    };
    expect(await edit(remind.messageId, "/remind 3h call dad")).toEqual([
      html(
        `Changed \`${once!.id}\` 💬 call dad · once 17:30\nRead "3h" as the schedule and "call dad" as the text.\n⏰ Wed 12 May 17:30 (Europe/Berlin), in 3 h`,
      ),
    ]);
    expect(await edit(every.messageId, "/every day at 9 headlines")).toEqual([
      html(
        `Changed \`${daily!.id}\` 💬 headlines · every day at 09:00 · next 13 May 09:00\nRead "day at 9" as the schedule and "headlines" as the text.\n🔁 every day at 09:00 (Europe/Berlin) · \`0 9 * * *\`\nNext: Thu 13 May 09:00, Fri 14 May 09:00, Sat 15 May 09:00`,
      ),
    ]);
    expect(await must(chat.stub.getJob(chat.chatId, once!.id))).toMatchObject({
      name: "call dad",
      text: "call dad",
      schedule: { at: new Date(MAY + 180 * MIN).toISOString() },
    });
    expect(await must(chat.stub.getJob(chat.chatId, daily!.id))).toMatchObject({ name: "headlines", text: "headlines", schedule: { cron: "0 9 * * *" } });
    expect(await jobsOf(chat)).toHaveLength(2);
    await must(chat.stub.cancelJob(chat.chatId, once!.id));
    expect(await edit(remind.messageId, "/remind 4h call dad")).toEqual([
      `The job this message made (${once!.id}) is gone: it ran, or was cancelled. Send the command again for a new one.`,
    ]);
  });

  it("is ignored otherwise, and leaves nothing", async () => {
    const chat = await chatAt();
    const hello = await say(chat, "/jobs");
    const entries = await transcript(chat.stub, chat.chatId);
    const before = (await bot.calls({ chatId: chat.chatId })).length;
    await postUpdate(bot.env([chat.chatId]), editedUpdate(chat.chatId, hello.messageId, "/remind 2h call mum"));
    await postUpdate(bot.env([chat.chatId]), editedUpdate(chat.chatId, 31337, "hello there"));
    await delivered(bot, chat);
    expect((await bot.calls({ chatId: chat.chatId })).length).toBe(before);
    expect(await transcript(chat.stub, chat.chatId)).toEqual(entries);
    expect(await jobsOf(chat)).toEqual([]);
  });
});

describe("/quiet", () => {
  it("shows, sets (in the chat's zone, across midnight) and clears the chat's quiet hours", async () => {
    const chat = await chatAt();
    expect(await reply(chat, "/quiet")).toBe("No quiet hours: every message arrives with its notification sound. Set them with /quiet 22:00-07:00.");
    expect(await reply(chat, "/quiet 22-7")).toBe(
      "Quiet hours set: 22:00–07:00 (Europe/Berlin). Messages sent then arrive without a sound; nothing is held back.",
    );
    expect(await must(chat.stub.getQuiet(chat.chatId))).toEqual({ quiet: { from: "22:00", to: "07:00" } });
    expect(await reply(chat, "/quiet")).toBe(
      "Quiet hours: 22:00–07:00 (Europe/Berlin): messages sent then arrive without a sound. Change them with /quiet 23:00-06:30, or turn them off with /quiet off.",
    );
    expect(await reply(chat, "/quiet 1pm to 3pm")).toBe(
      "Quiet hours set: 13:00–15:00 (Europe/Berlin). Messages sent then arrive without a sound; nothing is held back. It is quiet now.",
    );
    expect(await reply(chat, "/quiet 22:00-25:00")).toBe(
      `I couldn't read "22:00-25:00" as quiet hours: give when they start and end, in your time zone. Try /quiet 22:00-07:00 or /quiet off.`,
    );
    expect(await must(chat.stub.getQuiet(chat.chatId))).toEqual({ quiet: { from: "13:00", to: "15:00" } });
    expect(await reply(chat, "/quiet off")).toBe("Quiet hours off: every message arrives with its notification sound.");
    expect(await must(chat.stub.getQuiet(chat.chatId))).toEqual({ quiet: null });
  });
});
