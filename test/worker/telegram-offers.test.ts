/**
 * Buttons that ask (docs/telegram.md, issue 14), through the webhook and the Bot API stub, and through the admin API in
 * transcript mode: without a model, a message that reads as a reminder is offered with Create and Cancel
 * (`y:`/`n:` + the offer's id), and a press creates it once; `/timezone` takes a city or country, and answers an
 * offset or a name with several zones with a button per zone (`z:` + the zone), and a city by its name in any of the
 * eight languages (`Москва`). A bot entry keeps its buttons in the transcript, and `POST …/messages { press }` presses
 * one. Chat ids 5150000 up.
 */
import { describe, expect, it, vi } from "vitest";
import type { ButtonRows } from "../../src/schemas/chats";
import { renderTelegramHtml } from "../../src/telegram/render";
import { textsOf } from "../../src/texts";
import { feed } from "./agent-helpers";
import { brief, chatIds, clockOf, fireJob, jobsOf, must, send, spyQueue, transcript } from "./helpers";
import {
  buttonsOf,
  type Call,
  callbackUpdate,
  delivered,
  distance,
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
const newChat = chatIds(5_150_000);
const bot = new TestBot("offers");
/** A transcript button's callback data (a Mini App button has none). */
const dataOf = (button: ButtonRows[number][number]) => ("data" in button ? button.data : undefined);

const say = (chat: TelegramChat, text: string): Promise<Call> => sayOnce(bot, chat, text);

/** Presses `data` under a message in the chat; returns the answer's text and the messages the press sent. */
async function pressIn(chat: TelegramChat, data: string): Promise<{ answer: string | undefined; sent: Call[]; cleared: boolean }> {
  const before = (await bot.sends(chat.chatId)).length;
  const editsOf = async () =>
    (await bot.calls({ chatId: chat.chatId, method: "editMessageReplyMarkup" })).filter(
      (c) => c.params.message_id === update.callback_query.message.message_id,
    );
  const update = callbackUpdate(chat.chatId, data);
  const editsBefore = (await editsOf()).length;
  expect((await postUpdate(bot.env([chat.chatId]), update)).status).toBe(200);
  const sent = (await delivered(bot, chat)).slice(before);
  const answers = (await bot.calls({ method: "answerCallbackQuery" })).filter((c) => c.params.callback_query_id === update.callback_query.id);
  expect(answers.length, "answered once").toBe(1);
  // Only this press's edits: the earlier presses under the same message made their own.
  const edits = (await editsOf()).slice(editsBefore);
  return { answer: textOf(answers[0]), sent, cleared: edits.some((c) => JSON.stringify(c.params.reply_markup) === JSON.stringify({ inline_keyboard: [] })) };
}

/** Tomorrow at `hour`:00 UTC by the chat's clock. */
const tomorrowAt = (now: number, hour: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1, hour);
};

describe("a reminder written in words, without a model", () => {
  it("is offered with the understood time and Create / Cancel, and goes to no agent", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const now = await clockOf(chat.stub);
    const offer = await say(chat, "remind me tomorrow at 9 to call the dentist");
    const at = tomorrowAt(now, 9);
    const buttons = buttonsOf(offer)!;
    expect(buttons).toEqual([
      [
        { text: "Create", data: expect.stringMatching(/^y:[a-z2-9]{8}$/) },
        { text: "Cancel", data: `n:${buttons[0]![0]!.data.slice(2)}` },
      ],
    ]);
    const texts = [now, await clockOf(chat.stub)].map((t) =>
      renderTelegramHtml(
        `No model is configured, but this reads as a reminder: "call the dentist"\nRead "tomorrow at 9" as the schedule and "call the dentist" as the text.\n⏰ ${weekdayTime(at, "UTC", t)} (UTC), ${distance(at - t)}\nCreate it?`,
      ),
    );
    expect(texts).toContain(offer.params.text);
    expect(chat.sent).toEqual([]);
    expect(await jobsOf(chat)).toEqual([]);
  });

  it("Create makes the job once, says so, and takes the buttons away; a second press finds it answered", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const now = await clockOf(chat.stub);
    const offer = await say(chat, "erinnere mich morgen um 9 an den Zahnarzt");
    const create = buttonsOf(offer)![0]![0]!.data;
    const first = await pressIn(chat, create);
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({
      name: "an den Zahnarzt",
      text: "an den Zahnarzt",
      schedule: { at: new Date(tomorrowAt(now, 9)).toISOString() },
      createdBy: "user",
    });
    expect(first.answer).toBe(`Created ${job!.id}.`);
    expect(first.cleared).toBe(true);
    expect(first.sent).toHaveLength(1);
    expect(first.sent[0]!.params.text).toContain(`Created <code>${job!.id}</code> 💬 an den Zahnarzt · once `);
    const again = await pressIn(chat, create);
    expect(again).toMatchObject({ answer: "This was answered already.", sent: [] });
    expect(await jobsOf(chat)).toHaveLength(1);
  });

  it("Cancel drops it; a time that passed before Create creates nothing and says so", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const cancel = buttonsOf(await say(chat, "remind me in 10 minutes to stretch"))![0]![1]!.data;
    expect(await pressIn(chat, cancel)).toMatchObject({ answer: "OK, no reminder.", sent: [], cleared: true });
    const create = buttonsOf(await say(chat, "remind me in 10 minutes to stretch"))![0]![0]!.data;
    await chat.stub.testAdvanceClock(11 * 60_000);
    const late = await pressIn(chat, create);
    expect(late.answer).toBe("That time has passed; nothing was created.");
    expect(late.sent[0]!.params.text).toMatch(
      /^That time has passed \(\w{3} \d{1,2} \w{3} \d{2}:\d{2} in UTC\); nothing was created\. Try \/remind tomorrow 9:00 stretch or \/remind 2h stretch\.$/,
    );
    expect(await jobsOf(chat)).toEqual([]);
  });

  it("leaves any other message to the agent, whose answer carries the /remind example", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "remind me to call the dentist"));
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "what is on today?"));
    expect(chat.sent!.map((s) => (s.body as { text: string }).text)).toEqual(["remind me to call the dentist", "what is on today?"]);
    await feed(chat.sent!.map((s) => s.body as never));
    const calls = await delivered(bot, chat, 2);
    for (const c of calls)
      expect(c.params.text).toBe(
        "No model is configured, so I can only run your scheduled jobs. Send /help for the commands. For a reminder: /remind tomorrow 9:00 call mum",
      );
  });
});

describe("a repetition written in words is offered as the recurring job /every would make (issue 31)", () => {
  const table: [message: string, text: string, phrase: string, schedule: Record<string, string>, description: string][] = [
    ["remind me every monday at 9 to water the plants", "water the plants", "every monday at 9", { cron: "0 9 * * 1" }, "every Monday at 09:00"],
    // Read in the language it was written in; answered in the chat's (English: the app sent no language).
    ["erinnere mich jeden Montag um 9 die Pflanzen zu gießen", "die Pflanzen zu gießen", "jeden Montag um 9", { cron: "0 9 * * 1" }, "every Monday at 09:00"],
    ["напомни мне каждый понедельник в 9 полить цветы", "полить цветы", "каждый понедельник в 9", { cron: "0 9 * * 1" }, "every Monday at 09:00"],
    [
      "remind me to water the plants every other tuesday at 10",
      "water the plants",
      "every other tuesday at 10",
      { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU" },
      "every 2 weeks on Tuesday at 10:00",
    ],
  ];
  it.each(table)("%s", async (message, text, phrase, schedule, description) => {
    const chat = await telegramChat(bot, newChat().chatId);
    const offer = await say(chat, message);
    const lines = String(offer.params.text).split("\n");
    expect(lines.slice(0, 2)).toEqual(
      [`No model is configured, but this reads as a reminder: "${text}"`, `Read "${phrase}" as the schedule and "${text}" as the text.`].map(
        renderTelegramHtml,
      ),
    );
    // In the chat's language, a cron's fields after the words, never a rule's RRULE.
    const cron = "cron" in schedule ? ` · \`${schedule.cron}\`` : "";
    expect(lines[2]).toBe(renderTelegramHtml(`🔁 ${description} (UTC)${cron}`));
    expect(lines[3]).toMatch(/^Next: /);
    expect(lines.at(-1)).toBe("Create it?");
    expect(await jobsOf(chat)).toEqual([]);
    const pressed = await pressIn(chat, buttonsOf(offer)![0]![0]!.data);
    const [job] = await jobsOf(chat);
    expect(job).toMatchObject({ name: text, text, schedule, category: "recurring", createdBy: "user" });
    expect(pressed.answer).toBe(`Created ${job!.id}.`);
    expect(pressed.sent[0]!.params.text).toMatch(new RegExp(`^Created <code>${job!.id}</code> 💬 `));
  });
});

describe("/timezone by place", () => {
  it("sets the zone a city or country names, with the reply of a zone change", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    for (const [input, zone] of [
      ["Berlin", "Europe/Berlin"],
      ["Kiev", "Europe/Kyiv"],
      ["New York", "America/New_York"],
      ["São Paulo", "America/Sao_Paulo"],
      ["Japan", "Asia/Tokyo"],
    ]) {
      const reply = await say(chat, `/timezone ${input}`);
      expect(reply.params.text, input).toMatch(new RegExp(`^Time zone set to ${zone} \\(UTC[+-]\\d{2}:\\d{2}\\)\\. Now \\d{1,2} \\w{3} \\d{2}:\\d{2}\\.$`));
      expect(await must(chat.stub.getSettings(chat.chatId))).toEqual({ chatId: chat.chatId, timeZone: zone, isDefault: false });
    }
  });

  it("sets the zone of a city named in the sender's language or another of the eight (issue 33)", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    for (const [language, input, zone] of [
      ["ru", "Москва", "Europe/Moscow"],
      ["de", "Wien", "Europe/Vienna"],
      // Another language's name than the sender's, and no language at all.
      ["de", "Варшава", "Europe/Warsaw"],
      [undefined, "Nueva York", "America/New_York"],
    ] as const) {
      const update = textUpdate(chat.chatId, `/timezone ${input}`);
      const from = language ? { ...update.message.from, language_code: language } : update.message.from;
      const before = (await bot.sends(chat.chatId)).length;
      expect((await postUpdate(bot.env([chat.chatId]), { ...update, message: { ...update.message, from } })).status).toBe(200);
      const [reply] = (await delivered(bot, chat)).slice(before);
      // In the chat's language: the sender's, else the last the chat saw (German for the app that sent none).
      const set = (await textsOf(language ?? "de")).zone.set(zone, "@@OFFSET@@", false, "@@NOW@@");
      const pattern = set
        .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
        .replace("@@OFFSET@@", "UTC[+-]\\d{2}:\\d{2}")
        .replace("@@NOW@@", ".+");
      expect(reply!.params.text, input).toMatch(new RegExp(`^${pattern}`));
      expect(await must(chat.stub.getSettings(chat.chatId))).toMatchObject({ timeZone: zone });
    }
  });

  it("answers an offset with a button per zone on it now, and a press sets that zone", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const reply = await say(chat, "/timezone UTC+9");
    expect(reply.params.text).toBe(
      renderTelegramHtml('"UTC+9" is an offset; these zones are on it now. Tap yours: a zone keeps its summer time, a fixed offset does not.'),
    );
    const buttons = buttonsOf(reply)!;
    // One button per clock (Tokyo, Seoul and Yakutsk keep the same), then the fixed offset; two to a row.
    expect(buttons).toEqual([
      [
        { text: "Asia/Tokyo", data: "z:Asia/Tokyo" },
        { text: "UTC+09:00, no summer time", data: "z:Etc/GMT-9" },
      ],
    ]);
    const pressed = await pressIn(chat, "z:Asia/Tokyo");
    expect(pressed.answer).toBe("Time zone set to Asia/Tokyo.");
    expect(pressed.cleared).toBe(true);
    expect(pressed.sent[0]!.params.text).toMatch(/^Time zone set to Asia\/Tokyo \(UTC\+09:00\)\. Now /);
    expect(await must(chat.stub.getSettings(chat.chatId))).toMatchObject({ timeZone: "Asia/Tokyo" });
  });

  it("answers a country with several zones with one button per clock, labelled with its offset", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const reply = await say(chat, "/timezone USA");
    expect(reply.params.text).toBe(renderTelegramHtml('"USA" has more than one time zone. Tap yours, or send /timezone with your city.'));
    const zones = buttonsOf(reply)!.flat();
    expect(zones.map((b) => b.data)).toEqual(
      [
        "America/New_York",
        "America/Chicago",
        "America/Denver",
        "America/Phoenix",
        "America/Los_Angeles",
        "America/Anchorage",
        "Pacific/Honolulu",
        "America/Adak",
      ].map((z) => `z:${z}`),
    );
    expect(zones[0]!.text).toMatch(/^America\/New_York \(UTC-0[45]:00\)$/);
    expect(buttonsOf(reply)!.map((row) => row.length)).toEqual([2, 2, 2, 2]);
  });
});

describe("transcript mode: entries keep their buttons, and POST …/messages { press } presses one", () => {
  const post = (chatId: string, body: unknown) => send("POST", `/admin/chats/${chatId}/messages`, body);

  it("offers a reminder with buttons in the transcript; pressing Create answers, creates, and clears them", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    expect((await post(chatId, { text: "remind me in 5 minutes to stretch" })).status).toBe(202);
    const [, offer] = await transcript(stub, chatId);
    expect(offer).toMatchObject({ role: "bot", source: "command", buttons: [[{ text: "Create" }, { text: "Cancel" }]] });
    const create = dataOf(offer!.buttons![0]![0]!);
    const pressed = await post(chatId, { press: create });
    const [job] = await jobsOf({ chatId, stub });
    expect(pressed).toEqual({ status: 200, body: { answer: `Created ${job!.id}.` } });
    expect(job).toMatchObject({ name: "stretch", createdBy: "user" });
    const entries = await transcript(stub, chatId);
    expect(entries[1]!.buttons).toBeUndefined();
    expect(brief(entries).map((e) => e.role)).toEqual(["user", "bot", "bot"]);
    // The offered reminder's Create is the reply that creates the chat's first job: the default-zone notice goes with it.
    expect(entries[2]!.text).toMatch(
      new RegExp(
        `^Created \`${job!.id}\` 💬 stretch · once \\d{2}:\\d{2}\\n⏰ .* \\(UTC\\), in [45] min\\nTimes here are in UTC\\. Where are you\\? Send /timezone and your city, e\\.g\\. /timezone Berlin\\.$`,
      ),
    );
    expect(await post(chatId, { press: create })).toEqual({ status: 200, body: { answer: "This was answered already." } });
    expect(sent).toEqual([]);
  });

  it("shows a recurring job's message with Done, Snooze 1 h, Skip next and Pause, which a press acts on once", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const fired = await fireJob(chatId, stub, { cron: true, name: "Stretch", text: "Time to stretch." });
    await feed([fired.message]);
    const bot = (await transcript(stub, chatId)).find((e) => e.role === "bot")!;
    expect(bot.buttons).toEqual([
      [
        { text: "Done", data: `d:${fired.runId}` },
        { text: "Snooze 1 h", data: `s:60:${fired.runId}` },
      ],
      [
        { text: "Skip next", data: `k:${fired.runId}` },
        { text: "Pause", data: `p:${fired.runId}` },
      ],
    ]);
    expect(await post(chatId, { press: `p:${fired.runId}` })).toEqual({ status: 200, body: { answer: `Paused ${fired.job.id} (Stretch).` } });
    expect(await must(stub.getJob(chatId, fired.job.id))).toMatchObject({ enabled: false });
    expect((await transcript(stub, chatId)).find((e) => e.role === "bot")!.buttons).toEqual([[{ text: "⏸ Paused", data: `a:${fired.runId}` }]]);
    expect(await post(chatId, { press: `d:${fired.runId}` })).toEqual({ status: 200, body: { answer: "This was answered already." } });
  });

  it("refuses data that is no button, and a body with neither or both of text and press", async () => {
    const { chatId } = newChat();
    expect(await post(chatId, { press: "x:nothing" })).toEqual({
      status: 400,
      body: {
        error: { code: "bad_request", message: `"press" must be the data of a button in this chat's transcript, such as "y:k7m2qabc"; got "x:nothing".` },
      },
    });
    const oneOf = {
      status: 400,
      body: { error: { code: "bad_request", message: `Give exactly one of "text" (a message) or "press" (a button's data), such as {"text": "/jobs"}.` } },
    };
    expect(await post(chatId, {})).toEqual(oneOf);
    expect(await post(chatId, { text: "/jobs", press: "p:k7m2q" })).toEqual(oneOf);
    expect((await post(chatId, { press: "z".repeat(65) })).status).toBe(400);
  });

  it("sets a zone from a press of a /timezone question", async () => {
    const { chatId, stub } = newChat();
    expect((await post(chatId, { text: "/timezone Ukraine" })).status).toBe(202);
    const question = (await transcript(stub, chatId))[1]!;
    expect(question.buttons!.flat().map(dataOf)).toEqual(["z:Europe/Kyiv", "z:Europe/Simferopol"]);
    expect(await post(chatId, { press: "z:Europe/Kyiv" })).toEqual({ status: 200, body: { answer: "Time zone set to Europe/Kyiv." } });
    expect(await must(stub.getSettings(chatId))).toMatchObject({ timeZone: "Europe/Kyiv" });
    const after = await transcript(stub, chatId);
    expect(after[1]!.buttons).toBeUndefined();
    expect(after[2]!.text).toMatch(/^Time zone set to Europe\/Kyiv \(UTC\+0[23]:00\)\. Now /);
  });
});
