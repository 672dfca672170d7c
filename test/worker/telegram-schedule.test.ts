/**
 * `/remind` and `/every` as people type them, through the webhook and the Bot API stub (docs/telegram.md, issues 14
 * and 24): the job each phrase makes, in English and the other languages, the reply with what was understood (the
 * time with its weekday and distance; its description, which reads back, a cron's fields and the next three runs), the date-and-time bug,
 * DST notes, and the errors that quote the user with two examples, in the sender's language (language_code). Chat ids 5140000 up. Times come from the chat's own clock (`clockOf`), an hour
 * ahead of the machine's; expected texts are built with Intl.
 */
import { describe, expect, it, vi } from "vitest";
import type { Job } from "../../src/schemas/jobs";
import { renderTelegramHtml } from "../../src/telegram/render";
import { chatIds, clockOf, jobsOf, must, nextRun } from "./helpers";
import {
  type Call,
  chatTime,
  delivered,
  distance,
  eitherMinute,
  postUpdate,
  sayOnce,
  type TelegramChat,
  TestBot,
  telegramChat,
  textOf,
  textUpdate,
  weekdayTime,
} from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_140_000);
const bot = new TestBot("schedule");
const HOUR = 3_600_000;

const say = (chat: TelegramChat, text: string): Promise<Call> => sayOnce(bot, chat, text);

/** Sends `text` from a user whose Telegram app is in `language` (the update's `from.language_code`): the one reply. */
async function sayIn(chat: TelegramChat, language: string, text: string): Promise<Call> {
  const before = (await bot.sends(chat.chatId)).length;
  const update = textUpdate(chat.chatId, text);
  const withLanguage = { ...update, message: { ...update.message, from: { ...update.message.from, language_code: language } } };
  expect((await postUpdate(bot.env([chat.chatId]), withLanguage)).status).toBe(200);
  const fresh = (await delivered(bot, chat)).slice(before);
  expect(fresh, `replies to ${text}`).toHaveLength(1);
  return fresh[0]!;
}

/** Sends `text` and expects the reply to be one of `markdown` (several when it depends on the minute). */
async function expectReply(chat: TelegramChat, text: string, markdown: string | string[]): Promise<void> {
  const reply = await say(chat, text);
  if (Array.isArray(markdown)) expect(markdown.map(renderTelegramHtml)).toContain(reply.params.text);
  else expect(reply.params.text).toBe(renderTelegramHtml(markdown));
  expect(reply.params.reply_markup).toBeUndefined();
}

/** A chat with its zone set, and the next year by its clock. */
async function chatIn(zone: string | null): Promise<TelegramChat & { year: number }> {
  const chat = await telegramChat(bot, newChat().chatId);
  if (zone) await must(chat.stub.setTimeZone(chat.chatId, zone));
  return { ...chat, year: new Date(await clockOf(chat.stub)).getUTCFullYear() + 1 };
}

/**
 * The reply of a created one-off: the job line, where the words were cut (`phrase` the schedule), and the understood
 * time, for each minute the command may have run in.
 */
async function remindReplies(chat: TelegramChat, job: Job, zone: string, t0: number, phrase: string): Promise<string[]> {
  const at = Date.parse((job.schedule as { at: string }).at);
  const t1 = await clockOf(chat.stub);
  const out = new Set<string>();
  const cut = `Read "${phrase}" as the schedule and "${job.text}" as the text.`;
  for (const now of [t0, t1])
    out.add(
      `Created \`${job.id}\` 💬 ${job.name} · once ${chatTime(at, zone, now)}\n${cut}\n⏰ ${weekdayTime(at, zone, now)} (${zone}), ${distance(at - now)}`,
    );
  return [...out];
}

describe("/remind reads the time as people write it", () => {
  it("takes a date and a time with a space as one time: the job is at 14:30 and named after the text (the 09:00 bug)", async () => {
    const chat = await chatIn("Europe/Berlin");
    const t0 = await clockOf(chat.stub);
    const reply = await say(chat, `/remind ${chat.year}-12-02 14:30 call mum`);
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({
      name: "call mum",
      text: "call mum",
      kind: "prompt",
      category: "one-time",
      createdBy: "user",
      schedule: { at: `${chat.year}-12-02T13:30:00.000Z` },
    });
    expect((await remindReplies(chat, job!, "Europe/Berlin", t0, `${chat.year}-12-02 14:30`)).map(renderTelegramHtml)).toContain(reply.params.text);
    expect(reply.params.text).toContain(`⏰ ${weekdayTime(Date.parse(`${chat.year}-12-02T13:30:00Z`), "Europe/Berlin", t0)} (Europe/Berlin), in `);
  });

  it("reads tomorrow 9am, monday 9:00 and on the 3rd at 8 in the chat's zone, and the text after them", async () => {
    const chat = await chatIn(null);
    const t0 = await clockOf(chat.stub);
    const today = new Date(t0);
    // The coming Monday 09:00: today's when it is Monday before nine.
    let monday = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + ((8 - today.getUTCDay()) % 7), 9);
    if (monday <= t0) monday += 7 * 86_400_000;
    const cases: [string, number][] = [
      ["tomorrow 9am call mum", Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 1, 9)],
      ["monday 9:00 standup", monday],
    ];
    // The next 3rd at 08:00 after now.
    let third = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 3, 8);
    if (third <= t0) third = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 3, 8);
    cases.push(["on the 3rd at 8 dentist", third]);
    for (const [phrase, at] of cases) {
      await say(chat, `/remind ${phrase}`);
      const text = phrase.split(" ").slice(-1)[0] === "mum" ? "call mum" : phrase.split(" ").slice(-1)[0]!;
      const job = (await jobsOf(chat)).find((j) => j.name === text);
      expect(job?.schedule, phrase).toEqual({ at: new Date(at).toISOString() });
    }
  });

  it("reads relative times from the chat's now and says how far ahead", async () => {
    const chat = await chatIn(null);
    const t0 = await clockOf(chat.stub);
    const reply = await say(chat, "/remind in 2 hours check the oven");
    const t1 = await clockOf(chat.stub);
    const [job] = await jobsOf(chat);
    const at = Date.parse((job!.schedule as { at: string }).at);
    expect(at).toBeGreaterThanOrEqual(t0 + 2 * HOUR);
    expect(at).toBeLessThanOrEqual(t1 + 2 * HOUR);
    expect(job!.name).toBe("check the oven");
    expect(reply.params.text).toMatch(/\(UTC\), in 2 h\nTimes here are in UTC\. Where are you\? Send \/timezone and your city, e\.g\. \/timezone Berlin\.$/);
    const t2 = await clockOf(chat.stub);
    // Told once: the second job's reply ends with how far ahead it is.
    expect((await say(chat, "/remind 1h30m call back")).params.text).toMatch(/\(UTC\), in 1 h 30 min$/);
    const t3 = await clockOf(chat.stub);
    const back = (await jobsOf(chat)).find((j) => j.name === "call back")!;
    const backAt = Date.parse((back.schedule as { at: string }).at);
    expect(backAt).toBeGreaterThanOrEqual(t2 + 1.5 * HOUR);
    expect(backAt).toBeLessThanOrEqual(t3 + 1.5 * HOUR);
  });

  /** The calendar day (YYYY-MM-DD) and the time (HH:mm) of an instant in Berlin. */
  const berlinDayAndTime = (at: number) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat("en-CA", {
        timeZone: "Europe/Berlin",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      })
        .formatToParts(at)
        .map((x) => [x.type, x.value]),
    );
    return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  };
  /** The day after `at`'s own day in Berlin. */
  const berlinTomorrow = (at: number) => new Date(Date.parse(`${berlinDayAndTime(at).day}T12:00:00Z`) + 24 * HOUR).toISOString().slice(0, 10);

  it("reads German, Russian and Japanese", async () => {
    const chat = await chatIn("Europe/Berlin");
    const t0 = await clockOf(chat.stub);
    for (const [message, name] of [
      ["/remind morgen um 9 Mama anrufen", "Mama anrufen"],
      ["/remind завтра в 9 позвонить маме", "позвонить маме"],
      ["/remind 明日9時にお母さんに電話", "お母さんに電話"],
    ] as const) {
      await say(chat, message);
      const job = (await jobsOf(chat)).find((j) => j.name === name);
      const at = Date.parse((job!.schedule as { at: string }).at);
      // Tomorrow 09:00 in Berlin, tomorrow being the day after the chat's clock's own day there.
      expect(berlinDayAndTime(at), message).toEqual({ day: berlinTomorrow(t0), time: "09:00" });
    }
  });

  it("notes a time that the spring-forward gap moves", async () => {
    const chat = await chatIn("Europe/Berlin");
    // The last Sunday of March next year: Berlin's clocks jump from 02:00 to 03:00.
    const lastOfMarch = new Date(Date.UTC(chat.year, 2, 31));
    const day = 31 - lastOfMarch.getUTCDay();
    const reply = await say(chat, `/remind ${chat.year}-03-${day} 02:30 night shift`);
    const [job] = await jobsOf(chat);
    expect(job!.schedule).toEqual({ at: `${chat.year}-03-${day}T01:30:00.000Z` });
    expect(textOf(reply)?.split("\n").at(-1)).toBe(`${chat.year}-03-${day} 02:30 does not exist in Europe/Berlin; runs at 03:30.`);
  });
});

describe("/remind says what it did not understand, with two examples that work now", () => {
  it("quotes the word it could not read, a time in seconds, a past date, and a missing text", async () => {
    const chat = await chatIn("Europe/Berlin");
    const now = await clockOf(chat.stub);
    const tomorrow = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(now + 24 * HOUR);
    await expectReply(chat, "/remind tomorow 9am call mum", `I couldn't read "tomorow" as a time. Try /remind tomorrow 9:00 call mum or /remind 2h call mum.`);
    await expectReply(
      chat,
      "/remind 90s stretch",
      `"90s" counts seconds; a reminder is set in minutes, at least one ahead. Try /remind 2m stretch or /remind 2h stretch.`,
    );
    const past = `${chat.year - 2}-01-01 09:00`;
    const reply = await say(chat, `/remind ${past} water plants`);
    expect(reply.params.text).toMatch(
      new RegExp(`^"${past}" is in the past: .* was \\d+ days ago\\. Try /remind ${tomorrow} 09:00 water plants or /remind 2h water plants\\.$`),
    );
    await expectReply(
      chat,
      "/remind tomorrow 9am",
      `"tomorrow 9am" needs a text after it: what should I send then? Try /remind tomorrow 9am call mum or /remind 2h call mum.`,
    );
    await expectReply(chat, "/remind", "/remind needs a time and then the text of the reminder. Try /remind tomorrow 9:00 call mum or /remind 2h call mum.");
    expect(await jobsOf(chat)).toEqual([]);
  });
});

describe("/every turns a phrase into plain cron and shows it", () => {
  /** The reply of a created recurring job: the line, where the words were cut, the description with the zone and the cron after it, the next three runs. */
  function everyReply(job: Job, cron: string, description: string, zone: string, now: number, phrase: string): string {
    const next: number[] = [];
    let after = now;
    for (let i = 0; i < 3; i++) {
      after = Date.parse(nextRun(cron, zone, after));
      next.push(after);
    }
    return [
      `Created \`${job.id}\` 💬 ${job.name} · ${description} · next ${chatTime(next[0]!, zone, now)}`,
      `Read "${phrase}" as the schedule and "${job.text}" as the text.`,
      `🔁 ${description} (${zone}) · \`${cron}\``,
      `Next: ${next.map((t) => weekdayTime(t, zone, now)).join(", ")}`,
    ].join("\n");
  }

  const table: [message: string, stored: string, cron: string, description: string, name: string][] = [
    ["/every day at 8 summarise news", "0 8 * * *", "0 8 * * *", "every day at 08:00", "summarise news"],
    ["/every weekdays at 8:30 check inbox", "30 8 * * 1-5", "30 8 * * 1-5", "every weekday at 08:30", "check inbox"],
    ["/every monday 9:00 standup", "0 9 * * 1", "0 9 * * 1", "every Monday at 09:00", "standup"],
    ["/every 15 minutes stretch", "*/15 * * * *", "*/15 * * * *", "every 15 minutes", "stretch"],
    ["/every hour drink water", "0 * * * *", "0 * * * *", "every hour", "drink water"],
    ["/every month on the 1st at 9 pay rent", "0 9 1 * *", "0 9 1 * *", "every month on the 1st at 09:00", "pay rent"],
    ["/every mon,wed,fri at 18:00 gym", "0 18 * * 1,3,5", "0 18 * * 1,3,5", "every Monday, Wednesday and Friday at 18:00", "gym"],
    ['/every "0 8 * * 1-5" plan the day', "0 8 * * 1-5", "0 8 * * 1-5", "every weekday at 08:00", "plan the day"],
    ["/every 0 7 * * 0 weekly review", "0 7 * * 0", "0 7 * * 0", "every Sunday at 07:00", "weekly review"],
    ["/every @daily water the plants", "@daily", "0 0 * * *", "every day at 00:00", "water the plants"],
    // Issue 24: the forms cron can say, in the other languages, with or without their word for "every".
    ["/every twice a day at 9 and 18 pills", "0 9,18 * * *", "0 9,18 * * *", "every day at 09:00 and 18:00", "pills"],
    ["/every every weekday except friday gym", "0 9 * * 1-4", "0 9 * * 1-4", "every Monday, Tuesday, Wednesday and Thursday at 09:00", "gym"],
    ["/every jeden Tag um 8 Zeitung lesen", "0 8 * * *", "0 8 * * *", "every day at 08:00", "Zeitung lesen"],
    ["/every Montag um 8 Standup", "0 8 * * 1", "0 8 * * 1", "every Monday at 08:00", "Standup"],
    ["/every tous les lundis à 9h réunion", "0 9 * * 1", "0 9 * * 1", "every Monday at 09:00", "réunion"],
    ["/every cada 15 minutos estirar", "*/15 * * * *", "*/15 * * * *", "every 15 minutes", "estirar"],
    ["/every todos os dias às 8 café", "0 8 * * *", "0 8 * * *", "every day at 08:00", "café"],
    ["/every ogni giorno alle 9 caffè", "0 9 * * *", "0 9 * * *", "every day at 09:00", "caffè"],
    ["/every op werkdagen om 8:30 mail", "30 8 * * 1-5", "30 8 * * 1-5", "every weekday at 08:30", "mail"],
    ["/every каждый день в 9 кофе", "0 9 * * *", "0 9 * * *", "every day at 09:00", "кофе"],
    ["/every am 15. jeden Monats Miete", "0 9 15 * *", "0 9 15 * *", "every month on the 15th at 09:00", "Miete"],
  ];

  it.each(table)("%s → %s", async (message, stored, cron, description, name) => {
    const chat = await chatIn("Europe/Berlin");
    const t0 = await clockOf(chat.stub);
    const reply = await say(chat, message);
    const t1 = await clockOf(chat.stub);
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({ name, text: name, schedule: { cron: stored }, category: "recurring", createdBy: "user" });
    // A quoted cron is shown once quoted.
    const phrase = message
      .slice("/every ".length, message.length - name.length)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    const replies = [t0, t1].map((now) => everyReply(job!, cron, description, "Europe/Berlin", now, phrase));
    expect(replies.map(renderTelegramHtml)).toContain(reply.params.text);
  });

  it("makes the recurring job of a /remind that says a repetition", async () => {
    const chat = await chatIn("Europe/Berlin");
    const t0 = await clockOf(chat.stub);
    const reply = await say(chat, "/remind every day at 8 summarise news");
    const t1 = await clockOf(chat.stub);
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({ name: "summarise news", schedule: { cron: "0 8 * * *" }, category: "recurring" });
    const replies = [t0, t1].map((now) => everyReply(job!, "0 8 * * *", "every day at 08:00", "Europe/Berlin", now, "every day at 8"));
    expect(replies.map(renderTelegramHtml)).toContain(reply.params.text);
  });

  it("makes a rule job of what cron cannot say, and a job that ends of an end, each with its words and next runs", async () => {
    const chat = await chatIn(null);
    const t0 = await clockOf(chat.stub);
    const reply = await say(chat, "/every 45 minutes stretch");
    const t1 = await clockOf(chat.stub);
    const [rule] = await jobsOf(chat);
    // The rule starts at this minute of the chat's clock (UTC): its runs are 45, 90 and 135 minutes on.
    const start = Date.parse(`${(rule!.schedule as { start: string }).start}:00Z`);
    expect(start).toBeGreaterThan(t0 - 60_000);
    expect(start).toBeLessThanOrEqual(t1);
    expect(rule).toMatchObject({ name: "stretch", category: "recurring", schedule: { rrule: "FREQ=MINUTELY;INTERVAL=45" }, until: null, runsLeft: null });
    const runs = [1, 2, 3].map((i) => start + i * 45 * 60_000);
    const lines = (now: number) =>
      [
        `Created \`${rule!.id}\` 💬 stretch · every 45 minutes · next ${chatTime(runs[0]!, "UTC", now)}`,
        'Read "45 minutes" as the schedule and "stretch" as the text.',
        // Its words, never its RRULE: read at this minute, "every 45 minutes" is the same rule.
        "🔁 every 45 minutes (UTC)",
        `Next: ${runs.map((t) => weekdayTime(t, "UTC", now)).join(", ")}`,
        // The chat's first job, in the default zone.
        "Times here are in UTC. Where are you? Send /timezone and your city, e.g. /timezone Berlin.",
      ].join("\n");
    expect(eitherMinute(t0, t1, lines).map(renderTelegramHtml)).toContain(reply.params.text);

    const year = new Date(t0).getUTCFullYear() + 1;
    const t2 = await clockOf(chat.stub);
    const ending = await say(chat, `/every day at 8 until 31 dec ${year} news`);
    const t3 = await clockOf(chat.stub);
    const news = (await jobsOf(chat)).find((j) => j.name === "news")!;
    expect(news).toMatchObject({ schedule: { cron: "0 8 * * *" }, until: `${year}-12-31T23:59`, runsLeft: null });
    const endLines = (now: number) => {
      const next: number[] = [];
      let after = now;
      for (let i = 0; i < 3; i++) {
        after = Date.parse(nextRun("0 8 * * *", "UTC", after));
        next.push(after);
      }
      return [
        `Created \`${news.id}\` 💬 news · every day at 08:00 · next ${chatTime(next[0]!, "UTC", now)} · until 31 Dec ${year}`,
        `Read "day at 8 until 31 dec ${year}" as the schedule and "news" as the text.`,
        "🔁 every day at 08:00 (UTC) · `0 8 * * *`",
        `Next: ${next.map((t) => weekdayTime(t, "UTC", now)).join(", ")}`,
      ].join("\n");
    };
    expect(eitherMinute(t2, t3, endLines).map(renderTelegramHtml)).toContain(ending.params.text);
  });

  it("describes the schedule in the sender's language, words the bot reads back as the same schedule", async () => {
    const chat = await chatIn("Europe/Berlin");
    const reply = await sayIn(chat, "de", "/every werktags um 8:30 Post lesen");
    expect(textOf(reply)?.split("\n")[2]).toBe("🔁 werktags um 08:30 (Europe/Berlin) · <code>30 8 * * 1-5</code>");
    // The words as shown, typed back: the same schedule.
    await sayIn(chat, "de", "/every werktags um 08:30 (Europe/Berlin) Zeitung");
    expect((await jobsOf(chat)).map((j) => [j.name, j.schedule])).toEqual([
      ["Post lesen", { cron: "30 8 * * 1-5" }],
      ["Zeitung", { cron: "30 8 * * 1-5" }],
    ]);
  });

  it("keeps what an end said after /timezone: until 31 march is still the end of 31 March, in /jobs too", async () => {
    const chat = await chatIn(null);
    const now = new Date(await clockOf(chat.stub));
    const year = now.getUTCMonth() < 2 ? now.getUTCFullYear() : now.getUTCFullYear() + 1;
    await say(chat, "/every day at 8 until 31 march news");
    expect((await jobsOf(chat))[0]).toMatchObject({ until: `${year}-03-31T23:59` });
    await say(chat, "/timezone Berlin");
    expect((await jobsOf(chat))[0]).toMatchObject({ until: `${year}-03-31T23:59` });
    const list = textOf(await say(chat, "/jobs"))!;
    expect(list).toContain(`· until 31 Mar${year === now.getUTCFullYear() ? "" : ` ${year}`}`);
    expect(list).not.toContain("1 Apr");
  });

  it("answers an unread phrase in the sender's language, else the last one the chat saw, and English for a chat that saw none", async () => {
    const chat = await chatIn(null);
    const reply = await sayIn(chat, "de", "/every jedn Tag um 8 Zeitung");
    expect(reply.params.text).toBe(
      renderTelegramHtml(
        'Ich konnte "jedn" nicht als Zeitplan lesen. Versuche /every jeden Tag um 8:00 Nachrichten zusammenfassen oder /every werktags um 8:30 Nachrichten zusammenfassen.',
      ),
    );
    const french = await sayIn(chat, "fr", "/remind demian à 9h appeler maman");
    expect(french.params.text).toBe(
      renderTelegramHtml("Je n'ai pas pu lire « demian » comme une date. Essayez /remind demain à 9h00 appeler maman ou /remind 2h appeler maman."),
    );
    // An app in a language without a table: the chat's last language (French), or English in a chat that saw none.
    const japanese = await sayIn(chat, "ja", "/every evry day x");
    expect(japanese.params.text).toBe(
      renderTelegramHtml(
        "Je n'ai pas pu lire « evry » comme un horaire. Essayez /every tous les jours à 8h00 résumer les actualités ou /every en semaine à 8h30 résumer les actualités.",
      ),
    );
    const fresh = await chatIn(null);
    expect((await sayIn(fresh, "ja", "/every evry day x")).params.text).toBe(
      renderTelegramHtml('I couldn\'t read "evry" as a schedule. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.'),
    );
    // The language asked for is read first; a phrase in another still reads.
    await sayIn(chat, "ru", "/every jeden Tag um 8 Zeitung");
    expect((await jobsOf(chat)).map((j) => [j.name, j.schedule])).toEqual([["Zeitung", { cron: "0 8 * * *" }]]);
  });

  it("says what it did not understand, with two examples", async () => {
    const chat = await chatIn(null);
    await expectReply(
      chat,
      "/every evry day at 8 news",
      `I couldn't read "evry" as a schedule. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.`,
    );
    await expectReply(
      chat,
      '/every "0 8 * *" plan',
      `I couldn't use "0 8 * *" as a schedule: Invalid cron expression "0 8 * *": it has 4 fields; use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily". Try /every "0 8 * * 1-5" plan or /every day at 8:00 plan.`,
    );
    await expectReply(
      chat,
      "/every weekdays at 8:30",
      `"weekdays at 8:30" needs a text after it: what should I send then? Try /every weekdays at 8:30 summarise the news or /every day at 8:00 summarise the news.`,
    );
    expect(await jobsOf(chat)).toEqual([]);
  });
});

describe("job ids in commands", () => {
  it("are read case-insensitively: /pause 3CFEC is /pause 3cfec", async () => {
    const chat = await chatIn(null);
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Stretch", kind: "prompt", cron: "0 0 1 1 *", text: "Stretch." }, "admin"));
    await expectReply(chat, `/pause ${job.id.toUpperCase()}`, `Paused ${job.id} (Stretch).`);
    await expectReply(chat, `/RUN ${job.id.toUpperCase()}`, `Running ${job.id} (Stretch) now.`);
    expect(await must(chat.stub.getJob(chat.chatId, job.id))).toMatchObject({ enabled: false });
  });
});

describe("the schedule ends where the text begins, and the reply shows the cut (issue 31)", () => {
  const cut = (phrase: string, text: string) => renderTelegramHtml(`Read "${phrase}" as the schedule and "${text}" as the text.`);

  const table: [message: string, cron: string, text: string, phrase: string][] = [
    ["/every friday at 17 weekly report", "0 17 * * 5", "weekly report", "friday at 17"],
    ["/every monday at 9 daily standup", "0 9 * * 1", "daily standup", "monday at 9"],
    ["/every day at 7 morning pages", "0 7 * * *", "morning pages", "day at 7"],
    ["/every day at 8 in the evening walk", "0 20 * * *", "walk", "day at 8 in the evening"],
    ["/remind every monday at 9 water the plants", "0 9 * * 1", "water the plants", "every monday at 9"],
    ["/every jeden Freitag um 17 Wochenbericht", "0 17 * * 5", "Wochenbericht", "jeden Freitag um 17"],
    ["/every tous les lundis 16h réunion", "0 16 * * 1", "réunion", "tous les lundis 16h"],
    ["/every каждый день в 7 утренние страницы", "0 7 * * *", "утренние страницы", "каждый день в 7"],
  ];
  it.each(table)("%s → %s, %s", async (message, cron, text, phrase) => {
    const chat = await chatIn("Europe/Berlin");
    const reply = await say(chat, message);
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({ name: text, text, schedule: { cron }, category: "recurring" });
    expect(String(reply.params.text).split("\n")[1]).toBe(cut(phrase, text));
  });

  it("reads an end or a count said after the text", async () => {
    const chat = await chatIn("Europe/Berlin");
    const counted = await say(chat, "/every day at 9 stretch 10 times");
    const stretch = (await jobsOf(chat)).find((j) => j.name === "stretch");
    expect(stretch).toMatchObject({ text: "stretch", schedule: { cron: "0 9 * * *" }, runsLeft: 10 });
    expect(String(counted.params.text).split("\n")[1]).toBe(cut("day at 9 … 10 times", "stretch"));
    const ending = await say(chat, "/every weekday at 8:30 inbox until March");
    const inbox = (await jobsOf(chat)).find((j) => j.name === "inbox");
    expect(inbox).toMatchObject({ text: "inbox", schedule: { cron: "30 8 * * 1-5" }, runsLeft: null });
    expect(inbox?.until).not.toBeNull();
    expect(String(ending.params.text).split("\n")[1]).toBe(cut("weekday at 8:30 … until March", "inbox"));
  });

  it("refuses a number too large, a part said twice and a time that could be how often, in the sender's language", async () => {
    const chat = await chatIn(null);
    await expectReply(
      chat,
      "/every 99999999999999999999 minutes water",
      "99999999999999999999 is too large: a schedule runs at least once in 5 years. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.",
    );
    await expectReply(
      chat,
      "/every day from 1 jan from 1 jan water",
      'I couldn\'t use "from 1 jan": a schedule says each of its parts once. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.',
    );
    const russian = await sayIn(chat, "ru", "/every каждые 99999999999999999999 минут полить");
    expect(russian.params.text).toBe(
      renderTelegramHtml(
        "99999999999999999999 — слишком большое число: расписание срабатывает хотя бы раз в 5 лет. Попробуйте /every каждый день в 8:00 сделать обзор новостей или /every по будням в 8:30 сделать обзор новостей.",
      ),
    );
    const french = await sayIn(chat, "fr", "/every 16h boire");
    expect(french.params.text).toBe(
      renderTelegramHtml(
        "« 16h » peut être une heure ou un intervalle. Essayez /every tous les jours à 16h00 résumer les actualités ou /every toutes les 16 heures résumer les actualités.",
      ),
    );
    expect(await jobsOf(chat)).toEqual([]);
  });
});
