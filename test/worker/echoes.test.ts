/**
 * Echoes are safe (issue 32, docs/telegram.md#commands, docs/api.md#requests-and-errors): what a person or a
 * client wrote comes back (a zone, an id, a phrase, quiet hours, a field's name, a job's name) without control,
 * bidi and zero-width characters, so U+202E cannot turn a reply around and nothing hidden rides along; what they
 * wrote as content (a reminder's text) is kept as it was. Through the webhook and the Bot API stub, and the admin
 * API the page reads (the page shows its answers as text). The chat's clock stands still at Wed 12 May 2027 14:30 in
 * Berlin. Chat ids 5530000 up.
 */
import { describe, expect, it, vi } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { badRequest, chatIds, jobsOf, must, send } from "./helpers";
import { delivered, postUpdate, type TelegramChat, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const newChat = chatIds(5_540_000);
const bot = new TestBot("echoes");
// Wed 12 May 2027 14:30 in Berlin (CEST, UTC+2).
const MAY = Date.UTC(2027, 4, 12, 12, 30);
/** U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER, BEL, NUL. */
const [RLO, LRI, ZWSP, WJ, BEL, NUL] = ["\u202e", "\u2066", "\u200b", "\u2060", "\u0007", "\u0000"];

async function chatAt(): Promise<TelegramChat> {
  const chat = await telegramChat(bot, newChat().chatId);
  await chat.stub.testFreezeClock(MAY);
  await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
  return chat;
}

/** The one reply to `text`, as Telegram got it. */
async function reply(chat: TelegramChat, text: string): Promise<string> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, text))).status).toBe(200);
  const replies = (await delivered(bot, chat)).slice(before).map((c) => String(c.params.text));
  expect(replies, `the replies to ${JSON.stringify(text)}`).toHaveLength(1);
  return replies[0]!;
}

describe("a reply that quotes what was typed", () => {
  it("quotes a place, an id, quiet hours and a phrase without control, bidi and zero-width characters", async () => {
    const chat = await chatAt();
    expect(await reply(chat, `/timezone Nowhere${RLO}land${BEL}`)).toBe(
      `I don't know a time zone or place called "Nowhereland". Try /timezone Berlin or /timezone America/New_York.`,
    );
    expect(await reply(chat, `/cancel ab${RLO}cd`)).toBe("No job abcd in this chat.");
    expect(await reply(chat, `/run a${NUL}b${ZWSP}`)).toBe("No job ab in this chat.");
    expect(await reply(chat, `/quiet 2${RLO}2`)).toBe(
      `I couldn't read "22" as quiet hours: give when they start and end, in your time zone. Try /quiet 22:00-07:00 or /quiet off.`,
    );
    expect(await reply(chat, `/every ${RLO}foo${ZWSP} bar`)).toBe(
      `I couldn't read "foo" as a schedule. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.`,
    );
  });

  it("reads the zone that shows: a mark pasted with it is no part of its name", async () => {
    const chat = await chatAt();
    expect(await reply(chat, `/timezone ${LRI}Asia/Tokyo${ZWSP}`)).toBe("Time zone set to Asia/Tokyo (UTC+09:00). Now 12 May 21:30.");
  });
});

describe("a job's name", () => {
  it("made from a reminder's text shows what the text shows; the text itself is kept as written", async () => {
    const chat = await chatAt();
    const text = `t${RLO}ea${ZWSP}`;
    const created = await reply(chat, `/remind 10m ${text}`);
    const [job] = await jobsOf(chat);
    expect(created).toBe(
      renderTelegramHtml(
        `Created \`${job!.id}\` 💬 tea · once 14:40\nRead "10m" as the schedule and "tea" as the text.\n⏰ Wed 12 May 14:40 (Europe/Berlin), in 10 min`,
      ),
    );
    expect(job).toMatchObject({ name: "tea", text });
  });

  it("given to the API is kept and shown without what does not show, in the API's answers (what the page shows) and the bot's", async () => {
    const chat = await chatAt();
    const made = await send("POST", `/admin/chats/${chat.chatId}/jobs`, { name: `Stand${ZWSP}up${WJ}`, kind: "prompt", text: "Stand up.", cron: "0 9 * * *" });
    expect(made.status).toBe(201);
    const id = (made.body as { job: { id: string; name: string } }).job.id;
    expect((made.body as { job: { name: string } }).job.name).toBe("Standup");
    expect((await send("GET", `/admin/chats/${chat.chatId}/jobs/${id}`)).body).toMatchObject({ job: { name: "Standup" } });
    expect(await reply(chat, `/pause ${id}`)).toBe(`Paused ${id} (Standup).`);
  });
});

describe("the API's sentences", () => {
  it("quote a zone and an unknown field's name as they show", async () => {
    const chat = (await chatAt()).chatId;
    expect(await send("PUT", `/admin/chats/${chat}/settings`, { timeZone: `Mars${RLO}/Olympus` })).toEqual(
      badRequest(`Unknown time zone "Mars/Olympus". Use an IANA name such as Europe/Berlin or America/New_York.`),
    );
    expect(await send("PUT", `/admin/chats/${chat}/settings`, { timeZone: "UTC", [`zo${RLO}ne${ZWSP}`]: "UTC" })).toEqual(badRequest('Unknown field "zone".'));
  });

  it("read a place as what shows of it, answer it so (the page's Change zone quotes it from there), and quote one unknown", async () => {
    const usa = await send("GET", `/admin/zones?${new URLSearchParams({ place: `U${RLO}S${ZWSP}A` })}`);
    expect(usa.status).toBe(200);
    expect(usa.body).toMatchObject({ place: "USA", offset: false, zones: expect.arrayContaining([expect.objectContaining({ zone: "America/New_York" })]) });
    expect(await send("GET", `/admin/zones?${new URLSearchParams({ place: `Atl${RLO}antis${BEL}` })}`)).toEqual(
      badRequest(
        `"Atlantis" is not a time zone, city, country or offset I know; give a city such as Berlin, an offset such as UTC+2, or an IANA name such as America/New_York.`,
      ),
    );
  });
});
