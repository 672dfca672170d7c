/**
 * Sending the outbox to the Bot API (docs/telegram.md, issue 5): parts of at most 4096 UTF-16 units split on line
 * boundaries (a long code block closed and reopened, long lines hard-split, non-Latin text and emoji whole),
 * the plain-text resend on "can't parse entities", `retry_after` on 429, bounded retries of 5xx (8 of
 * Telegram's answers, or 24 h) and stalls that spend no attempt (a gateway's page, no answer within the alarm's
 * 5 s budget), each part recorded before it is sent, and a blocked chat (403, "chat not found"). A reply that
 * would take more than 10 messages goes out as its first message and the whole of it as the file `reply.md`
 * (issue 22), under the same rules.
 *
 * Time passes on the chat's own clock: a test moves it to the alarm the chat armed and runs that alarm, and
 * reads what the Bot API stub received, the alarm, the transcript, /healthz and the lines the chat logged.
 * Chat ids 5040000 up; the Bot API is the stub.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SEND_BUDGET_MS } from "../../src/chat/outbox";
import { statusText as statusIn } from "../../src/telegram/commands";
import { ENGLISH } from "../../src/texts";

const statusText = (s: Parameters<typeof statusIn>[1]) => statusIn(ENGLISH.t.status, s);

import { plainText, renderTelegramHtml, splitForTelegram } from "../../src/telegram/render";
import {
  advanceTo,
  alarmComes,
  alarmOf,
  brief,
  chatIds,
  clockOf,
  EARLY_MS,
  fireJob,
  HOUR,
  must,
  queued,
  type Stub,
  send,
  setInstanceVars,
  transcript,
} from "./helpers";
import {
  aheadOfRuntime,
  blockedChats,
  type Call,
  callsReach,
  delivered,
  expectReply,
  postUpdate,
  type TelegramChat,
  TestBot,
  telegramChat,
  textUpdate,
} from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(5_040_000);
const bot = new TestBot("sending");
const LIMIT = 4096;
const GIVE_UP = "Telegram sendMessage failed (500): Internal Server Error";
// Each test that expects a log line spies on the console itself; the spy ends with it.
afterEach(() => {
  vi.restoreAllMocks();
});

/** Delivers messages one after the other; the chat's alarm runs only when the test runs it, so all wait for it. */
async function deliverAll(stub: Stub, messages: [key: string, markdown: string][]): Promise<void> {
  for (const [key, markdown] of messages) expect(await must(stub.deliver(key, markdown))).toEqual({ delivered: true });
}

/** Runs the alarm that is due now; returns the chat's clock just before and just after it ran. */
async function runDueAlarm(stub: Stub): Promise<[number, number]> {
  const before = await clockOf(stub);
  expect(await alarmOf(stub)).toBeLessThanOrEqual(before);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return [before, await clockOf(stub)];
}

const texts = (calls: Call[]) => calls.map((c) => c.params.text as string);

/**
 * As few parts as fit: each part but the last is so full that the next part's first line would not have fit
 * in it too (a splitter that cut every line apart would pass every other check).
 */
function expectFull(parts: readonly string[]): void {
  for (let k = 0; k + 1 < parts.length; k++) {
    expect(parts[k]!.length + 1 + parts[k + 1]!.split("\n")[0]!.length, `part ${k} could have taken one more line`).toBeGreaterThan(LIMIT);
  }
}

/** No lone surrogate anywhere: nothing was cut inside a character. */
const wellFormed = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

describe("splitting", () => {
  it("sends a message over 4096 units as several sendMessage calls in order, each at most 4096, cut at line ends", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const lines = Array.from({ length: 300 }, (_, i) => `Line ${String(i).padStart(3, "0")}: a < b & c, **bold** and lorem ipsum dolor sit amet`);
    const markdown = lines.join("\n");
    expect(renderTelegramHtml(markdown).length).toBeGreaterThan(3 * LIMIT);
    await must(chat.stub.deliver("m:long", markdown));
    const calls = await delivered(bot, chat);
    expect(calls.length).toBeGreaterThanOrEqual(4);
    expectFull(texts(calls));
    for (const c of calls) {
      expect(String(c.params.chat_id)).toBe(chat.chatId);
      expect(c.params.parse_mode).toBe("HTML");
      expect((c.params.text as string).length).toBeLessThanOrEqual(LIMIT);
      for (const line of (c.params.text as string).split("\n"))
        expect(line).toMatch(/^Line \d{3}: a &lt; b &amp; c, <b>bold<\/b> and lorem ipsum dolor sit amet$/);
    }
    // In order, nothing lost or repeated: the parts joined at their line ends are the whole rendering.
    expect(texts(calls).join("\n")).toBe(renderTelegramHtml(markdown));
    // Nothing left to send: the chat has nothing to wake for.
    expect(await alarmOf(chat.stub)).toBeNull();
  });

  it("closes a long code block at the end of a part and reopens it, same language, in the next", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const code = Array.from({ length: 400 }, (_, i) => `if (a < b && c[${i}]) { x = "<${i}>"; } // step ${i}`);
    const markdown = ["Here is the log:", "```js", ...code, "```", "Done."].join("\n");
    await must(chat.stub.deliver("m:code", markdown));
    const calls = await delivered(bot, chat);
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
    const first = await delivered(bot, chat);
    expect(first.length).toBeGreaterThanOrEqual(2);
    expectFull(texts(first));
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
      const calls = (await delivered(bot, chat)).slice(before);
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
    const calls = await delivered(bot, chat);
    // 15,000 units, cut between entities: 819 whole "&amp;" (4,095 units) in each full part.
    expect(texts(calls).map((p) => p.length)).toEqual([4095, 4095, 4095, 2715]);
    for (const p of texts(calls)) expect(p).toMatch(/^(&amp;)+$/);
    expect(texts(calls).join("")).toBe("&amp;".repeat(3000));
  });
});

describe("delivering to a chat", () => {
  it("sends what an agent of your own delivers over HTTP to a chat that has not written yet", async () => {
    const { chatId, stub } = newChat();
    await setInstanceVars(stub, bot.vars([chatId]));
    await aheadOfRuntime(stub);
    const res = await send("POST", `/tools/${chatId}/deliver`, { key: "m:proactive", markdown: "Good **morning**." }, bot.env([chatId]));
    expect(res).toEqual({ status: 200, body: { delivered: true } });
    const calls = await delivered(bot, { chatId, stub }, 1);
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
    expectReply(calls[0], chat.chatId, renderTelegramHtml(markdown));
    expect(calls[1]!.params).not.toHaveProperty("parse_mode");
    expect(String(calls[1]!.params.chat_id)).toBe(chat.chatId);
    expect(calls[1]!.params.text).toBe(plainText(markdown));
    expect(calls[1]!.params.text).toBe("Bold and code and a link (https://example.com/x?a=1&b=2)");
    expect(await alarmOf(chat.stub)).toBeNull();
  });

  it("keeps a job message's buttons on the plain resend", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { runId } = await fireJob(chat.chatId, chat.stub, { cron: true, name: "Stretch", text: "S." });
    await bot.script("sendMessage", [{ kind: "parse" }], chat.chatId);
    await must(chat.stub.deliver(runId, "Time to *stretch*."));
    const calls = await delivered(bot, chat, 2);
    expect(calls[1]!.params.text).toBe("Time to stretch.");
    expect(calls[1]!.params.reply_markup).toEqual(calls[0]!.params.reply_markup);
    expect(calls[1]!.params.reply_markup).toBeDefined();
  });
});

describe("429 Too Many Requests", () => {
  it("makes no further call before retry_after on the chat's clock: the alarm waits that long, then it is sent", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "429", retryAfter: 7 }], chat.chatId);
    await must(chat.stub.deliver("m:slow", "Hello."));
    const [t0, t1] = await runDueAlarm(chat.stub);
    expect(await bot.sends(chat.chatId)).toHaveLength(1);
    // retry_after plus up to a second of jitter, from the 429.
    const alarm = (await alarmOf(chat.stub))!;
    expect(alarm).toBeGreaterThanOrEqual(t0 + 7_000);
    expect(alarm).toBeLessThanOrEqual(t1 + 7_999);

    // Run early, the alarm sends nothing: the message waits by the clock.
    await alarmComes(chat.stub, EARLY_MS);
    expect(await bot.sends(chat.chatId)).toHaveLength(1);
    expect(await alarmOf(chat.stub)).toBe(alarm);

    await alarmComes(chat.stub);
    const calls = await delivered(bot, chat, 2);
    expect(calls[1]!.params.text).toBe(calls[0]!.params.text);
    expect(await alarmOf(chat.stub)).toBeNull();
  });

  it("holds back the rows after the one that waits retry_after, then sends them in order", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "429", retryAfter: 1 }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:first", "First."],
      ["m:second", "Second."],
    ]);
    const [t0] = await runDueAlarm(chat.stub);
    expect(texts(await bot.sends(chat.chatId))).toEqual(["First."]);
    expect((await alarmOf(chat.stub))!).toBeGreaterThanOrEqual(t0 + 1_000);
    // "Second." was due all along, yet nothing goes out before retry_after has passed.
    await alarmComes(chat.stub, EARLY_MS);
    expect(texts(await bot.sends(chat.chatId))).toEqual(["First."]);
    await alarmComes(chat.stub);
    expect(texts(await delivered(bot, chat, 3))).toEqual(["First.", "First.", "Second."]);
  });
});

describe("5xx and network errors", () => {
  it("retries a 500 from the alarm with a growing backoff and gives the message up after 8 attempts", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script(
      "sendMessage",
      Array.from({ length: 8 }, () => ({ kind: "500" as const })),
      chat.chatId,
    );
    await must(chat.stub.deliver("m:flaky", "Are you there?"));
    let [t0, t1] = await runDueAlarm(chat.stub);
    for (let attempt = 1; attempt < 8; attempt++) {
      expect(await bot.sends(chat.chatId)).toHaveLength(attempt);
      // 2^attempt s after the failure, less up to half of it at random.
      const alarm = (await alarmOf(chat.stub))!;
      expect(alarm, `backoff after attempt ${attempt}`).toBeGreaterThanOrEqual(t0 + 500 * 2 ** attempt);
      expect(alarm, `backoff after attempt ${attempt}`).toBeLessThanOrEqual(t1 + 1_000 * 2 ** attempt);
      // Not a call before it.
      await alarmComes(chat.stub, EARLY_MS);
      expect(await bot.sends(chat.chatId)).toHaveLength(attempt);
      t0 = await alarmComes(chat.stub);
      t1 = await clockOf(chat.stub);
    }
    const calls = await delivered(bot, chat, 8);
    expect(new Set(texts(calls))).toEqual(new Set(["Are you there?"]));
    expect(errors.mock.calls).toEqual([[`outbox: m:flaky gave up after 8 attempt(s): ${GIVE_UP}`]]);
    // Given up: nothing is left to send, and the chat is not blocked: the next message goes out.
    expect(await alarmOf(chat.stub)).toBeNull();
    await must(chat.stub.deliver("m:after", "Now?"));
    expect(texts(await delivered(bot, chat, 9)).at(-1)).toBe("Now?");
  });

  it("gives up on a message 24 h old at its next failure, and not a second before", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "500" }, { kind: "500" }, { kind: "500" }], chat.chatId);
    const created = await clockOf(chat.stub);
    await must(chat.stub.deliver("m:old", "Old news."));
    await runDueAlarm(chat.stub);
    // A second short of 24 h, the second 500 is still retried...
    await advanceTo(chat.stub, created + 24 * HOUR - 1_000);
    await runDueAlarm(chat.stub);
    expect(await bot.sends(chat.chatId)).toHaveLength(2);
    expect(errors).not.toHaveBeenCalled();
    expect((await alarmOf(chat.stub))!).toBeGreaterThan(created + 24 * HOUR);
    // ...and the third, past 24 h, gives it up, with 5 of its 8 attempts unspent.
    await alarmComes(chat.stub);
    expect(await delivered(bot, chat, 3)).toHaveLength(3);
    expect(errors.mock.calls).toEqual([[`outbox: m:old gave up after 3 attempt(s): ${GIVE_UP}`]]);
    expect(await alarmOf(chat.stub)).toBeNull();
  });

  it("spends an attempt on Telegram's 500, not on a gateway's 502 page or a call unanswered within the 5 s budget", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const chat = await telegramChat(bot, newChat().chatId);
    // 7 of Telegram's failures (one short of giving up) and 2 stalls; the hang would be answered after 5.5 s.
    const answers = [
      { kind: "500" as const },
      { kind: "502" as const },
      { kind: "hang" as const, ms: 5_500 },
      ...Array.from({ length: 6 }, () => ({ kind: "500" as const })),
    ];
    await bot.script("sendMessage", answers, chat.chatId);
    await must(chat.stub.deliver("m:gw", "Through the gateway."));
    await runDueAlarm(chat.stub);
    for (let call = 2; call <= 10; call++) {
      await alarmComes(chat.stub);
      expect(await bot.sends(chat.chatId), `call ${call}`).toHaveLength(call);
    }
    // The hung call was given up at the budget (the stub saw its caller leave), and the tenth call sent it once.
    await vi.waitFor(async () => expect((await bot.sends(chat.chatId))[2]!.answered).toBe(-1), { timeout: 5_000, interval: 50 });
    const calls = await delivered(bot, chat, 10);
    expect(calls.map((c) => c.answered)).toEqual([500, 502, -1, 500, 500, 500, 500, 500, 500, 200]);
    expect(texts(calls)).toEqual(Array<string>(10).fill("Through the gateway."));
    expect(errors).not.toHaveBeenCalled();
    expect(await alarmOf(chat.stub)).toBeNull();
  });

  it("stops sending when the alarm's 5 s budget is spent: the rest goes out in the next alarm, due at once", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "hang", ms: 1_000 }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:slow", "Slow."],
      ["m:next", "Next."],
    ]);
    // While the first call is under way, the chat's clock passes the end of the budget.
    const run = runDurableObjectAlarm(chat.stub);
    await callsReach(bot, { chatId: chat.chatId, method: "sendMessage" }, 1);
    await chat.stub.testAdvanceClock(SEND_BUDGET_MS);
    expect(await run).toBe(true);
    const first = await bot.sends(chat.chatId);
    expect(first.map((c) => [c.params.text, c.answered])).toEqual([["Slow.", 200]]);
    expect((await alarmOf(chat.stub))!).toBeLessThanOrEqual(await clockOf(chat.stub));
    expect(texts(await delivered(bot, chat, 2))).toEqual(["Slow.", "Next."]);
  });

  it("holds back later messages while the first waits, and sends them in order after it", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "500" }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:a", "One."],
      ["m:b", "Two."],
      ["m:c", "Three."],
    ]);
    expect(texts(await delivered(bot, chat, 1))).toEqual(["One."]);
    // "Two." and "Three." are due, but they wait behind "One.": an early run of the alarm sends none of them.
    await alarmComes(chat.stub, EARLY_MS);
    expect(texts(await bot.sends(chat.chatId))).toEqual(["One."]);
    await alarmComes(chat.stub);
    expect(texts(await delivered(bot, chat, 4))).toEqual(["One.", "One.", "Two.", "Three."]);
  });

  it("does not send again the parts of a long message that went out before a failure", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const markdown = Array.from({ length: 150 }, (_, i) => `Row ${i} ${"x".repeat(60)}`).join("\n");
    await bot.script("sendMessage", [{ kind: "ok" }, { kind: "500" }], chat.chatId);
    await must(chat.stub.deliver("m:parts", markdown));
    expect((await delivered(bot, chat, 2)).map((c) => c.answered)).toEqual([200, 500]);
    await alarmComes(chat.stub);
    const calls = texts(await delivered(bot, chat, 4));
    expect(calls[2]).toBe(calls[1]);
    expect([calls[0], calls[2], calls[3]].join("\n")).toBe(renderTelegramHtml(markdown));
  });
});

describe("a long reply", () => {
  /** `n` lines of Markdown, about 110 characters each. */
  const longText = (n: number) =>
    Array.from({ length: n }, (_, i) => `Line ${String(i).padStart(4, "0")}: **bold** and ${"lorem ipsum dolor sit amet ".repeat(3)}`).join("\n");
  /** The fewest lines that take `parts` messages. */
  const linesFor = (parts: number) => {
    let n = 1;
    while (splitForTelegram(longText(n)).length < parts) n++;
    return n;
  };
  const FILE = (markdown: string) => ({ filename: "reply.md", type: "text/markdown", content: markdown });

  it("that would take more than 10 messages goes out as its first message and then the whole of it as reply.md", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const markdown = longText(linesFor(11));
    expect(splitForTelegram(markdown)).toHaveLength(11);
    await deliverAll(chat.stub, [["m:long", markdown]]);
    await runDueAlarm(chat.stub);
    const calls = await bot.calls({ chatId: chat.chatId });
    expect(calls.map((c) => [c.method, c.answered])).toEqual([
      ["sendMessage", 200],
      ["sendDocument", 200],
    ]);
    expectReply(calls[0], chat.chatId, splitForTelegram(markdown)[0]!.html);
    expect(calls[1]!.params).toEqual({ chat_id: chat.chatId, document: FILE(markdown) });
    expect(await alarmOf(chat.stub)).toBeNull();
  });

  it("of exactly 10 messages is sent as its 10 messages, with no file", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const n = linesFor(11) - 1;
    expect(splitForTelegram(longText(n))).toHaveLength(10);
    await deliverAll(chat.stub, [["m:ten", longText(n)]]);
    await runDueAlarm(chat.stub);
    expect((await bot.calls({ chatId: chat.chatId })).map((c) => c.method)).toEqual(Array(10).fill("sendMessage"));
  });

  it("of a job carries the job's buttons under the file, which waits retry_after on a 429 and is then sent, the first message not again", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const markdown = longText(linesFor(14));
    await bot.script("sendDocument", [{ kind: "429", retryAfter: 9 }], chat.chatId);
    await deliverAll(chat.stub, [["k7m2q:1000", markdown]]);
    const [t0, t1] = await runDueAlarm(chat.stub);
    const alarm = (await alarmOf(chat.stub))!;
    expect(alarm).toBeGreaterThanOrEqual(t0 + 9_000);
    expect(alarm).toBeLessThanOrEqual(t1 + 9_999);
    await alarmComes(chat.stub);
    const calls = await bot.calls({ chatId: chat.chatId });
    expect(calls.map((c) => [c.method, c.answered])).toEqual([
      ["sendMessage", 200],
      ["sendDocument", 429],
      ["sendDocument", 200],
    ]);
    expect(calls[0]!.params.reply_markup).toBeUndefined();
    const buttons = {
      inline_keyboard: [
        [
          { text: "Run now", callback_data: "r:k7m2q" },
          { text: "Pause", callback_data: "p:k7m2q" },
          { text: "Cancel", callback_data: "c:k7m2q" },
        ],
      ],
    };
    expect(calls[2]!.params).toEqual({ chat_id: chat.chatId, reply_markup: buttons, document: FILE(markdown) });
  });

  it("whose file Telegram refuses with 403 marks the chat blocked and drops what waits", async () => {
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendDocument", [{ kind: "blocked" }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:long", longText(linesFor(11))],
      ["m:after", "After."],
    ]);
    await runDueAlarm(chat.stub);
    expect((await bot.calls({ chatId: chat.chatId })).map((c) => c.method)).toEqual(["sendMessage", "sendDocument"]);
    expect(logs.mock.calls).toEqual([[`chat ${chat.chatId} is blocked: Telegram says it cannot be reached; it stays so until the user writes`]]);
    expect(await alarmOf(chat.stub)).toBeNull();
  });
});

describe("a blocked chat", () => {
  const status = (jobs: number) => statusText({ jobs, zone: "UTC", offset: "UTC+00:00", isDefault: true, agent: "echo", runner: "off", blocked: true });

  /** A chat whose first send Telegram refuses with `kind`, a second message waiting behind it; the line it logs. */
  async function blockedChat(kind: "blocked" | "deactivated" | "chat_not_found"): Promise<TelegramChat> {
    const logs = vi.spyOn(console, "log").mockImplementation(() => {});
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind }], chat.chatId);
    await deliverAll(chat.stub, [
      ["m:1", "One."],
      ["m:2", "Two."],
    ]);
    expect(texts(await delivered(bot, chat, 1))).toEqual(["One."]);
    expect(logs.mock.calls).toEqual([[`chat ${chat.chatId} is blocked: Telegram says it cannot be reached; it stays so until the user writes`]]);
    logs.mockRestore();
    return chat;
  }

  /** The user writes /status: the block lifts and the reply, which says so, is the chat's next message. */
  async function statusLiftsBlock(chat: TelegramChat, jobs: number): Promise<Call[]> {
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/status"));
    const calls = await delivered(bot, chat, 2);
    expectReply(calls[1], chat.chatId, renderTelegramHtml(status(jobs)));
    return calls;
  }

  for (const kind of ["blocked", "deactivated", "chat_not_found"] as const) {
    it(`is marked blocked on ${kind}, with the pending messages dropped`, async () => {
      const chat = await blockedChat(kind);
      // Nothing to wake for; and "Two." never goes out, not even once the user lifts the block.
      expect(await alarmOf(chat.stub)).toBeNull();
      expect(texts(await statusLiftsBlock(chat, 0))[0]).toBe("One.");
    });
  }

  it("sends nothing later and skips its due jobs", async () => {
    const chat = await blockedChat("blocked");
    expect(await must(chat.stub.deliver("m:3", "Three."))).toEqual({ delivered: true });
    expect(await alarmOf(chat.stub)).toBeNull();

    // A due job is skipped at fire time (docs/api.md#how-a-job-fires): kept, advanced, no run, no prompt.
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Daily", kind: "prompt", cron: "0 0 1 1 *", text: "D." }, "admin"));
    const dueAt = Date.parse(job.nextRunAt!);
    await advanceTo(chat.stub, dueAt);
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    expect(await queued(chat.stub)).toEqual([]);
    expect(await must(chat.stub.getJob(chat.chatId, job.id))).toMatchObject({
      nextRunAt: `${new Date(dueAt).getUTCFullYear() + 1}-01-01T00:00:00.000Z`,
      lastRunAt: null,
    });
    expect(await must(chat.stub.jobRuns(chat.chatId, job.id))).toEqual([]);

    // The next message the chat gets is the reply that lifts the block: "Two." and "Three." stay in the transcript only.
    expect(texts(await statusLiftsBlock(chat, 1))[0]).toBe("One.");
    expect(
      brief(await transcript(chat.stub, chat.chatId))
        .filter((e) => e.role === "bot")
        .map((e) => e.text),
    ).toEqual(["One.", "Two.", "Three.", status(1)]);
  });

  it("is counted by /healthz through the D1 directory, and no longer once the user writes again", async () => {
    const before = await blockedChats(bot);
    const chat = await blockedChat("blocked");
    expect(await blockedChats(bot)).toBe(before + 1);
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "hello"));
    expect(await blockedChats(bot)).toBe(before);
  });

  it("is unblocked when the user writes again: the /status reply goes out and says delivery was blocked", async () => {
    const chat = await blockedChat("blocked");
    await statusLiftsBlock(chat, 0);
    expect(brief(await transcript(chat.stub, chat.chatId)).map((e) => e.text)).toContain("Two.");
    // Unblocked: a later message goes out.
    await must(chat.stub.deliver("m:later", "Later."));
    expect(texts(await delivered(bot, chat, 3)).at(-1)).toBe("Later.");
  });
});
