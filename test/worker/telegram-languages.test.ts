/**
 * Everything a person reads, in the chat's language (docs/telegram.md#language, issue 33 item 2): in each of the
 * eight, a user whose Telegram app speaks it walks `/help`, `/remind`, `/every`, `/jobs`, a fired reminder's
 * buttons and a press of one, `/status`, `/timezone`, a missing job and a time in the past; no word of what they read is one that only the
 * English replies use (the words of every English reply, less those the language's own replies use too). Through
 * the webhook and the Bot API stub, the echo agent delivering the reminder; the chat's clock is frozen on a Monday
 * in Berlin, so each reply is exact. Chat ids 5570000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { renderTelegramHtml } from "../../src/telegram/render";
import { type Texts, textsOf } from "../../src/texts";
import { formatChatTime, formatDayMonthTime } from "../../src/time";
import { examplesIn, LANGS, type Lang } from "../../src/words";
import { feed } from "./agent-helpers";
import { advanceTo, chatIds, jobsOf, must } from "./helpers";
import { buttonsOf, type Call, callbackUpdate, delivered, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(5_570_000);
const bot = new TestBot("languages");
/** Monday 14 December 2026, 11:00 in Berlin. */
const NOW = Date.UTC(2026, 11, 14, 10, 0);

/** Every text a table holds: its strings, and what its functions say given sample values (1, "x", true, a list). */
function textsIn(table: unknown): string[] {
  if (typeof table === "string") return [table];
  if (Array.isArray(table)) return table.flatMap(textsIn);
  if (typeof table === "function") {
    const samples: unknown[][] = [
      [1, 1, "1", "1"],
      [2, 0, "x", "y"],
      [5, 3, "x", "y"],
      ["x", "y", "z", "w"],
      ["x", true, "z", "w"],
      ["x", false, "z", "w"],
      [["a", "b", "c"]],
    ];
    return samples.flatMap((args) => {
      try {
        const said = (table as (...a: unknown[]) => unknown)(...args);
        return typeof said === "string" ? [said] : [];
      } catch {
        return [];
      }
    });
  }
  return table !== null && typeof table === "object" ? Object.values(table).flatMap(textsIn) : [];
}

/** The words (three letters or more) of a text, lower case, outside `code` and command names. */
const wordsOf = (text: string): string[] =>
  (text.replace(/<code>[^<]*<\/code>|\/[a-z_]+|<[^>]+>/g, " ").match(/\p{L}{3,}/gu) ?? []).map((w) => w.toLocaleLowerCase());

/** The words only the English replies use: every word of English's table less those `lang`'s uses too. */
async function onlyEnglish(lang: Lang): Promise<Set<string>> {
  const own = new Set(textsIn(await textsOf(lang)).flatMap(wordsOf));
  return new Set(
    textsIn(await textsOf("en"))
      .flatMap(wordsOf)
      .filter((w) => !own.has(w)),
  );
}

/** The user, from an app in `lang`, sends `text`; the replies it got. */
async function say(chat: TelegramChat, text: string, lang: Lang): Promise<Call[]> {
  const before = (await bot.sends(chat.chatId)).length;
  const update = textUpdate(chat.chatId, text);
  const from = { ...update.message.from, language_code: lang };
  expect((await postUpdate(bot.env([chat.chatId]), { ...update, message: { ...update.message, from } })).status).toBe(200);
  return (await delivered(bot, chat)).slice(before);
}

/** What the user reads in the calls: texts, button labels, and a press's answer. */
const readIn = (calls: readonly Call[]): string[] =>
  calls.flatMap((c) => [...(typeof c.params.text === "string" ? [c.params.text] : []), ...(buttonsOf(c) ?? []).flat().map((b) => b.text)]);

describe("every reply in the chat's language", () => {
  it.each(LANGS)("%s: /help, /remind, /every, /jobs, a reminder's buttons and a press, /status, /timezone and an error", async (lang) => {
    const t: Texts = await textsOf(lang);
    const english = await onlyEnglish(lang);
    const ex = await examplesIn(lang);
    const chat = await telegramChat(bot, newChat().chatId);
    await chat.stub.testFreezeClock(NOW);
    await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
    const read: string[] = [];
    const walk = async (text: string) => {
      const calls = await say(chat, text, lang);
      expect(calls, text).toHaveLength(1);
      read.push(...readIn(calls));
      return String(calls[0]!.params.text);
    };
    expect(await walk("/help")).toContain(`<b>${t.help.title}</b>`);
    const reminded = await walk(`/remind ${ex.remind[0]} ${ex.texts.remind}`);
    expect(reminded.split("\n")[0]).toMatch(new RegExp(`^${t.job.created("<code>").replace(/[()]/g, "\\$&")}`));
    await walk(`/every ${ex.every[1]} ${ex.texts.every}`);
    expect(await walk("/jobs")).toContain(
      t.jobs.title("Europe/Berlin", formatDayMonthTime(NOW, "Europe/Berlin", t.dates)).replace(/\*\*([^*]+)\*\*/, "<b>$1</b>"),
    );
    await walk("/status");
    await walk("/timezone");
    expect(await walk("/cancel zzzzz")).toBe(t.job.noJob("zzzzz"));
    // A time in the past, said by the words in the language.
    expect(await walk(`/remind 2026-12-01 09:00 ${ex.texts.remind}`)).toMatch(/2026-12-01 09:00|1 Dec 09:00/);
    // A message that is no reminder, with no model: the echo agent's one sentence, in the language.
    const queuedBefore = chat.sent!.length;
    expect(await say(chat, "ok", lang)).toEqual([]);
    await feed(chat.sent!.slice(queuedBefore).map((s) => s.body as PromptMessage));
    const echoed = (await delivered(bot, chat)).at(-1)!;
    expect(echoed.params.text).toBe(renderTelegramHtml(t.agent.noModel));
    read.push(String(echoed.params.text));
    // The reminder fires: its message carries the one-off's buttons, in the language.
    const job = (await jobsOf(chat)).find((j) => "at" in j.schedule)!;
    await advanceTo(chat.stub, Date.parse(job.nextRunAt!));
    const before = chat.sent!.length;
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    const message = chat
      .sent!.slice(before)
      .map((s) => s.body as PromptMessage)
      .find((m) => m.jobId === job.id)!;
    await feed([message]);
    const fired = (await delivered(bot, chat)).at(-1)!;
    expect(
      buttonsOf(fired)!
        .flat()
        .map((b) => b.text),
    ).toEqual([t.buttons.done, t.buttons.in10min, t.buttons.in1h, t.buttons.tomorrow9]);
    read.push(...readIn([fired]));
    // A press of 10 min: its answer and the line that replaces the buttons.
    const update = callbackUpdate(chat.chatId, `s:10:${message.key}`);
    const withLanguage = { ...update, callback_query: { ...update.callback_query, from: { ...update.callback_query.from, language_code: lang } } };
    expect((await postUpdate(bot.env([chat.chatId]), withLanguage)).status).toBe(200);
    const answers = (await bot.calls({ method: "answerCallbackQuery" })).filter((c) => c.params.callback_query_id === update.callback_query.id);
    const edits = await bot.calls({ chatId: chat.chatId, method: "editMessageReplyMarkup" });
    const until = t.buttons.snoozedAnswer("09:10");
    expect(answers.map((c) => c.params.text)).toEqual([until]);
    read.push(until, ...readIn(edits.slice(-1)));
    expect(read.flatMap(wordsOf).filter((w) => english.has(w))).toEqual([]);
  });
});

describe("what the chat's object refuses, in the chat's language", () => {
  it.each(LANGS)("%s: /skip of a one-off and of a paused job, and a skip that is taken", async (lang) => {
    const t: Texts = await textsOf(lang);
    const ex = await examplesIn(lang);
    const chat = await telegramChat(bot, newChat().chatId);
    await chat.stub.testFreezeClock(NOW);
    await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
    const reply = async (text: string) => String((await say(chat, text, lang))[0]!.params.text);
    await reply(`/remind ${ex.remind[0]} ${ex.texts.remind}`);
    await reply(`/every ${ex.every[0]} ${ex.texts.every}`);
    const jobs = await jobsOf(chat);
    const once = jobs.find((j) => "at" in j.schedule)!;
    const every = jobs.find((j) => !("at" in j.schedule))!;
    expect(await reply(`/skip ${once.id}`)).toBe(t.problems.runsOnce(once.id));
    // `/edit <id> text …` with the language's word for text, as its /help shows it.
    const textWord = [...t.help.menu.edit.matchAll(/\/edit <id> (\S+) /gu)].at(-1)![1]!;
    await reply(`/edit ${once.id} ${textWord} ${ex.texts.every}`);
    expect((await jobsOf(chat)).find((j) => j.id === once.id)).toMatchObject({ text: ex.texts.every, name: ex.texts.every });
    // Taken: the occurrence passed over, as the language writes a day (tomorrow, 15 Dec, at 08:00).
    const skipped = (await reply(`/skip ${every.id}`)).split("\n")[0];
    expect(skipped).toBe(t.job.skippedAt(formatChatTime(Date.parse(every.nextRunAt!), "Europe/Berlin", NOW, t.dates)));
    await reply(`/pause ${every.id}`);
    expect(await reply(`/skip ${every.id}`)).toBe(t.problems.nothingToSkip(every.id, true));
  });
});

describe("/timezone with an offset, in the chat's language", () => {
  it.each(["de", "ru"] as const)("%s: the question and the fixed offset's button", async (lang) => {
    const t: Texts = await textsOf(lang);
    const chat = await telegramChat(bot, newChat().chatId);
    const [reply] = await say(chat, "/timezone UTC+9", lang);
    expect(reply!.params.text).toBe(renderTelegramHtml(t.zone.offset("UTC+9")));
    expect(
      buttonsOf(reply)!
        .flat()
        .map((b) => b.text),
    ).toContain(t.zone.fixed("UTC+09:00"));
  });
});
