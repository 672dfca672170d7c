/**
 * Sending the outbox to the Bot API (DESIGN §6, issue 5): parts of at most 4096 UTF-16 units split on line
 * boundaries (a long code block closed and reopened, long lines hard-split, non-Latin text and emoji whole),
 * the plain-text resend on "can't parse entities", `retry_after` on 429, bounded retries of 5xx and network
 * errors from the alarm, each part recorded before it is sent, and a blocked chat (403, "chat not found").
 * Time passes by backdating outbox rows between alarm runs. Chat ids 5040000 up; the Bot API is the stub.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { app } from "../../src/http/app";
import { describe, expect, it, vi } from "vitest";
import type { ChatScheduler } from "../../src/chat/ChatScheduler";
import { statusText } from "../../src/telegram/commands";
import { plainText, renderTelegramHtml } from "../../src/telegram/render";
import { send } from "./api-helpers";
import { alarmOf, chatIds, must, setInstanceVars, sql, transcript, brief, type JobView, type Stub } from "./agent-helpers";
import { blockedFlag, callsReach, delivered, expectReply, failedOutbox, outboxCount, outboxRows, postUpdate, STUB_URL, telegramChat, TestBot, textUpdate, type Call, type TelegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(5_040_000);
const bot = new TestBot("sending");
const LIMIT = 4096;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Delivers several messages in one event of the object, so all are in the outbox before its alarm runs. */
async function deliverAll(stub: Stub, messages: [key: string, markdown: string][]): Promise<void> {
  await runInDurableObject(stub, async (instance: ChatScheduler) => {
    for (const [key, markdown] of messages) {
      const r = await instance.deliver(key, markdown);
      if (!r.ok || !r.value.delivered) throw new Error(`deliver ${key}: ${JSON.stringify(r)}`);
    }
  });
}

/** Makes every outbox row due now and runs the alarm (the armed one is not yet due: backoff or retry_after). */
async function nextAlarm(stub: Stub): Promise<void> {
  await sql(stub, "UPDATE outbox SET next_attempt_at = ?", Date.now() - 1);
  await runDurableObjectAlarm(stub);
}

const texts = (calls: Call[]) => calls.map((c) => c.params.text as string);

/** No lone surrogate anywhere: nothing was cut inside a character. */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe("splitting", () => {
  it("sends a message over 4096 units as several sendMessage calls in order, each at most 4096, cut at line ends", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const lines = Array.from({ length: 300 }, (_, i) => `Line ${String(i).padStart(3, "0")}: a < b & c, **bold** and lorem ipsum dolor sit amet`);
    const markdown = lines.join("\n");
    expect(renderTelegramHtml(markdown).length).toBeGreaterThan(3 * LIMIT);
    await must(chat.stub.deliver("m:long", markdown));
    const calls = await delivered(bot, chat, 4);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    for (const c of calls) {
      expect(String(c.params.chat_id)).toBe(chat.chatId);
      expect(c.params.parse_mode).toBe("HTML");
      expect((c.params.text as string).length).toBeLessThanOrEqual(LIMIT);
      for (const line of (c.params.text as string).split("\n")) expect(line).toMatch(/^Line \d{3}: a &lt; b &amp; c, <b>bold<\/b> and lorem ipsum dolor sit amet$/);
    }
    // In order, nothing lost or repeated: the parts joined at their line ends are the whole rendering.
    expect(texts(calls).join("\n")).toBe(renderTelegramHtml(markdown));
    expect(await outboxCount(chat.stub)).toBe(0);
  });

  it("closes a long code block at the end of a part and reopens it, same language, in the next", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const code = Array.from({ length: 400 }, (_, i) => `if (a < b && c[${i}]) { x = "<${i}>"; } // step ${i}`);
    const markdown = ["Here is the log:", "```js", ...code, "```", "Done."].join("\n");
    await must(chat.stub.deliver("m:code", markdown));
    const calls = await delivered(bot, chat, 3);
    const parts = texts(calls);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const open = '<pre><code class="language-js">';
    const close = "</code></pre>";
    parts.forEach((p, k) => {
      expect(p.length).toBeLessThanOrEqual(LIMIT);
      expect(p.split(open).length, `part ${k} opens once`).toBe(2);
      expect(p.split(close).length, `part ${k} closes once`).toBe(2);
      if (k === 0) expect(p.startsWith(`Here is the log:\n${open}`)).toBe(true);
      else expect(p.startsWith(open)).toBe(true);
      if (k === parts.length - 1) expect(p.endsWith(`${close}\nDone.`)).toBe(true);
      else expect(p.endsWith(close)).toBe(true);
    });
    const strip = (s: string) => s.replaceAll(open, "").replaceAll(close, "");
    expect(parts.map(strip).join("\n")).toBe(strip(renderTelegramHtml(markdown)));
  });

  it("keeps non-Latin text and emoji whole: lines of Cyrillic, Japanese and emoji, and long lines without spaces", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const lines = Array.from({ length: 120 }, (_, i) => `${i}: Привет, мир! こんにちは世界 🌍👋🏽 Ελληνικά עברית العربية`);
    const manyLines = lines.join("\n");
    await must(chat.stub.deliver("m:lines", manyLines));
    const first = await delivered(bot, chat, 2);
    expect(first.length).toBeGreaterThanOrEqual(2);
    for (const p of texts(first)) {
      expect(p.length).toBeLessThanOrEqual(LIMIT);
      expect(wellFormed(p)).toBe(true);
    }
    expect(texts(first).join("\n")).toBe(renderTelegramHtml(manyLines));

    // One line of 6000 Japanese characters, 3000 emoji (6000 units) and 1000 family emoji (8 units each).
    const japanese = "日本語のテキスト".repeat(750);
    const emoji = "😀".repeat(3000);
    const family = "👨‍👩‍👧".repeat(1000);
    for (const [k, line] of [japanese, emoji, family].entries()) {
      const before = (await bot.sends(chat.chatId)).length;
      await must(chat.stub.deliver(`m:long${k}`, line));
      const calls = (await delivered(bot, chat, before + 2)).slice(before);
      expect(calls.length).toBeGreaterThanOrEqual(2);
      for (const p of texts(calls)) {
        expect(p.length).toBeLessThanOrEqual(LIMIT);
        expect(wellFormed(p)).toBe(true);
      }
      expect(texts(calls).join("")).toBe(line);
      if (line === family) for (const p of texts(calls)) expect(p.replaceAll("👨‍👩‍👧", "")).toBe("");
    }
  });

  it("counts the rendered length, not the Markdown: a line of 3000 & fits no part whole", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const markdown = "&".repeat(3000);
    await must(chat.stub.deliver("m:amp", markdown));
    const calls = await delivered(bot, chat, 2);
    for (const p of texts(calls)) {
      expect(p.length).toBeLessThanOrEqual(LIMIT);
      expect(p).toMatch(/^(&amp;)+$/);
    }
    expect(texts(calls).join("")).toBe("&amp;".repeat(3000));
  });
});

describe("delivering to a chat", () => {
  it("sends what an agent of your own delivers over HTTP to a chat that has not written yet", async () => {
    const { chatId, stub } = newChat();
    await setInstanceVars(stub, bot.vars([chatId]));
    const res = await send("POST", `/tools/${chatId}/deliver`, { key: "m:proactive", markdown: "Good **morning**." }, bot.env([chatId]));
    expect(res).toEqual({ status: 200, body: { delivered: true } });
    const calls = await delivered(bot, { chatId, stub }, 1);
    expect(calls).toHaveLength(1);
    expectReply(calls[0], chatId, "Good <b>morning</b>.");
  });
});

describe("the plain-text fallback", () => {
  it("resends a part Telegram cannot parse once, without parse mode, as plain text", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "parse" }], chat.chatId);
    const markdown = "**Bold** and `code` and [a link](https://example.com/x?a=1&b=2)";
    await must(chat.stub.deliver("m:parse", markdown));
    const calls = await delivered(bot, chat, 2);
    expect(calls).toHaveLength(2);
    expectReply(calls[0], chat.chatId, renderTelegramHtml(markdown));
    expect(calls[1]!.params).not.toHaveProperty("parse_mode");
    expect(String(calls[1]!.params.chat_id)).toBe(chat.chatId);
    expect(calls[1]!.params.text).toBe(plainText(markdown));
    expect(calls[1]!.params.text).toBe("Bold and code and a link (https://example.com/x?a=1&b=2)");
    expect(await outboxCount(chat.stub)).toBe(0);
  });

  it("keeps a job message's buttons on the plain resend", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const job = await must<JobView>(chat.stub.createJob(chat.chatId, { name: "Stretch", kind: "prompt", cron: "0 0 1 1 *", text: "S." }, "admin"));
    await sql(chat.stub, "UPDATE jobs SET next_run_at = ? WHERE id = ?", Date.now() - 1_000, job.id);
    await runDurableObjectAlarm(chat.stub);
    const runId = (await sql<{ run_id: string }>(chat.stub, "SELECT run_id FROM runs"))[0]!.run_id;
    await bot.script("sendMessage", [{ kind: "parse" }], chat.chatId);
    await must(chat.stub.deliver(runId, "Time to *stretch*."));
    const calls = await delivered(bot, chat, 2);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.params.text).toBe("Time to stretch.");
    expect(calls[1]!.params.reply_markup).toEqual(calls[0]!.params.reply_markup);
    expect(calls[1]!.params.reply_markup).toBeDefined();
  });
});

describe("429 Too Many Requests", () => {
  it("makes no further call before retry_after: the alarm and the row wait at least that long, then it is sent", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "429", retryAfter: 7 }], chat.chatId);
    const t0 = Date.now();
    await must(chat.stub.deliver("m:slow", "Hello."));
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    await sleep(1_000);
    expect(await bot.sends(chat.chatId)).toHaveLength(1);
    const [row] = await outboxRows(chat.stub);
    expect(row!.next_attempt_at).toBeGreaterThanOrEqual(t0 + 7_000);
    expect(row!.next_attempt_at).toBeLessThanOrEqual(Date.now() + 8_000 + 1_000);
    const alarm = await alarmOf(chat.stub);
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeGreaterThanOrEqual(t0 + 7_000);

    await nextAlarm(chat.stub);
    const calls = await delivered(bot, chat, 2);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.params.text).toBe(calls[0]!.params.text);
    expect(await outboxCount(chat.stub)).toBe(0);
  });

  it("waits retry_after by the clock when the alarm fires by itself, holding back the rows after it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "429", retryAfter: 1 }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:first", "First."],
      ["m:second", "Second."],
    ]);
    const calls = await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 3, 15_000);
    // No call at all to this chat before retry_after has passed, then the rows in their order.
    expect(calls.map((c) => c.at - calls[0]!.at >= 1_000)).toEqual([false, true, true]);
    expect(texts(calls)).toEqual(["First.", "First.", "Second."]);
  });
});

describe("5xx and network errors", () => {
  it("retries a 500 from the alarm with a growing backoff and records the message failed after 8 attempts", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", Array.from({ length: 8 }, () => ({ kind: "500" as const })), chat.chatId);
    await must(chat.stub.deliver("m:flaky", "Are you there?"));
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    let previousWait = 0;
    for (let attempt = 1; attempt < 8; attempt++) {
      const [row] = await outboxRows(chat.stub);
      expect(row, `row kept after attempt ${attempt}`).toBeDefined();
      expect(row!.attempts).toBe(attempt);
      const lastCall = (await bot.sends(chat.chatId)).at(-1)!;
      const wait = row!.next_attempt_at - lastCall.at;
      expect(wait, `backoff after attempt ${attempt}`).toBeGreaterThan(previousWait > 0 ? previousWait - 1_000 : 500);
      previousWait = wait;
      expect((await alarmOf(chat.stub))!).toBeLessThanOrEqual(row!.next_attempt_at);
      await nextAlarm(chat.stub);
      await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, attempt + 1);
    }
    expect(await outboxCount(chat.stub)).toBe(0);
    expect((await failedOutbox(chat.stub)).map((r) => r.error)).toEqual([
      "gave up after 8 attempt(s): Telegram sendMessage failed (500): Internal Server Error",
    ]);
    await runDurableObjectAlarm(chat.stub);
    await sleep(300);
    const calls = await bot.sends(chat.chatId);
    expect(calls).toHaveLength(8);
    expect(new Set(texts(calls))).toEqual(new Set(["Are you there?"]));
    // The chat is not blocked: the next message goes out.
    await must(chat.stub.deliver("m:after", "Now?"));
    expect(texts(await delivered(bot, chat, 9)).at(-1)).toBe("Now?");
  });

  it("gives up on a message older than 24 h at its next failure", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "500" }, { kind: "500" }], chat.chatId);
    await must(chat.stub.deliver("m:old", "Old news."));
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    await sql(chat.stub, "UPDATE outbox SET created_at = ?", Date.now() - 25 * 3_600_000);
    await nextAlarm(chat.stub);
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 2);
    expect(await outboxCount(chat.stub)).toBe(0);
    expect(await failedOutbox(chat.stub)).toEqual([
      { key: "m:old", error: "gave up after 2 attempt(s): Telegram sendMessage failed (500): Internal Server Error" },
    ]);
  });

  it("spends an attempt on Telegram's 500, not on a gateway's 502 page or a Bot API that never answers; then sends once", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "500" }, { kind: "502" }, { kind: "hang", ms: 5_500 }], chat.chatId);
    await must(chat.stub.deliver("m:gw", "Through the gateway."));
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    expect((await outboxRows(chat.stub))[0]).toMatchObject({ attempts: 1, stalls: 0 });

    // A 502 with an HTML body is not Telegram's answer: a stall, which does not use up one of the 8 attempts.
    await nextAlarm(chat.stub);
    expect((await outboxRows(chat.stub))[0]).toMatchObject({ attempts: 1, stalls: 1 });
    // Nor is a call that gets no answer within the alarm's 5 s budget.
    await nextAlarm(chat.stub);
    expect((await outboxRows(chat.stub))[0]).toMatchObject({ attempts: 1, stalls: 2 });

    await nextAlarm(chat.stub);
    await delivered(bot, chat, 4);
    await expect.poll(async () => (await bot.sends(chat.chatId)).map((c) => c.answered)).toEqual([500, 502, -1, 200]);
    expect(texts(await bot.sends(chat.chatId))).toEqual(Array<string>(4).fill("Through the gateway."));
  });

  it("holds back later messages while the first waits, and sends them in order after it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "500" }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:a", "One."],
      ["m:b", "Two."],
      ["m:c", "Three."],
    ]);
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    await sleep(300);
    expect(texts(await bot.sends(chat.chatId))).toEqual(["One."]);
    expect(await outboxCount(chat.stub)).toBe(3);
    await nextAlarm(chat.stub);
    expect(texts(await delivered(bot, chat, 4))).toEqual(["One.", "One.", "Two.", "Three."]);
  });

  it("does not send again the parts of a long message that went out before a failure", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const markdown = Array.from({ length: 150 }, (_, i) => `Row ${i} ${"x".repeat(60)}`).join("\n");
    await bot.script("sendMessage", [{ kind: "ok" }, { kind: "500" }], chat.chatId);
    await must(chat.stub.deliver("m:parts", markdown));
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 2);
    expect((await outboxRows(chat.stub))[0]).toMatchObject({ parts_sent: 1, attempts: 1 });
    await nextAlarm(chat.stub);
    const calls = texts(await delivered(bot, chat, 4));
    expect(calls).toHaveLength(4);
    expect(calls[2]).toBe(calls[1]);
    expect([calls[0], calls[2], calls[3]].join("\n")).toBe(renderTelegramHtml(markdown));
  });
});

describe("a blocked chat", () => {
  async function blockedChat(kind: "blocked" | "deactivated" | "chat_not_found"): Promise<TelegramChat> {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:1", "One."],
      ["m:2", "Two."],
    ]);
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    await sleep(300);
    return chat;
  }

  for (const kind of ["blocked", "deactivated", "chat_not_found"] as const) {
    it(`is marked blocked on ${kind}, with the pending messages dropped`, async () => {
      const chat = await blockedChat(kind);
      expect(await blockedFlag(chat.stub)).not.toBeNull();
      expect(await outboxCount(chat.stub)).toBe(0);
      expect(texts(await bot.sends(chat.chatId))).toEqual(["One."]);
    });
  }

  it("sends nothing later, skips its due jobs, and shows the block in /status", async () => {
    const chat = await blockedChat("blocked");
    expect(await must(chat.stub.deliver("m:3", "Three."))).toEqual({ delivered: true });
    expect(await outboxCount(chat.stub)).toBe(0);
    await runDurableObjectAlarm(chat.stub);

    // A due job is skipped at fire time (DESIGN §5): kept, advanced, no prompt.
    const job = await must<JobView>(chat.stub.createJob(chat.chatId, { name: "Daily", kind: "prompt", cron: "0 0 1 1 *", text: "D." }, "admin"));
    await sql(chat.stub, "UPDATE jobs SET next_run_at = ? WHERE id = ?", Date.now() - 1_000, job.id);
    await runDurableObjectAlarm(chat.stub);
    expect(chat.sent).toEqual([]);
    expect((await must<JobView>(chat.stub.getJob(chat.chatId, job.id))).nextRunAt).toBe(job.nextRunAt);

    // What /status then says is the next test's: the reply to the message that lifts the block.
    await sleep(300);
    expect(texts(await bot.sends(chat.chatId))).toEqual(["One."]);
  });

  it("is counted by /healthz through the D1 directory, and no longer once the user writes again", async () => {
    const chat = await blockedChat("blocked");
    const blockedRow = async () =>
      (await env.DB.prepare("SELECT blocked FROM chats WHERE chat_id = ?").bind(chat.chatId).first<{ blocked: number }>())?.blocked;
    expect(await blockedRow()).toBe(1);
    const health = async () => (await (await app.request("/healthz", {}, bot.env([chat.chatId]))).json()) as { blockedChats?: number };
    const before = (await health()).blockedChats ?? 0;
    expect(before).toBeGreaterThanOrEqual(1);
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "hello"));
    expect(await blockedRow()).toBe(0);
    expect(typeof (await health()).blockedChats).toBe("number"); // other files' chats may count too
  });

  it("is unblocked when the user writes again: the /status reply goes out and says delivery was blocked", async () => {
    const chat = await blockedChat("blocked");
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/status"));
    expect(await blockedFlag(chat.stub)).toBeNull();
    const calls = await delivered(bot, chat, 2);
    expect(calls).toHaveLength(2);
    expectReply(calls[1], chat.chatId, renderTelegramHtml(statusText({ jobs: 0, zone: "UTC", offset: "UTC+00:00", isDefault: true, agent: "echo", runner: "off", blocked: true })));
    expect(brief(await transcript(chat.stub, chat.chatId)).map((e) => e.text)).toContain("Two.");
  });
});
