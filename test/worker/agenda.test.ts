/**
 * The daily agenda in workerd (docs/telegram.md#agenda, issue 36): set through the chat's RPC and `/agenda` through
 * Telegram's updates; at its time the chat's one alarm sends one message listing the rest of the day's runs, none on an
 * empty day, then arms itself for the next day; a zone change moves it to that time in the new zone. Time moves through
 * the object's own clock. Chat ids 9850000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { renderTelegramHtml } from "../../src/telegram/render";
import { textsOf } from "../../src/texts";
import { advanceTo, alarmOf, chatIds, clockOf, lines, must, quietConsole, type Stub, spyQueue, transcript } from "./helpers";
import { sayIn, TestBot, telegramChat } from "./telegram-helpers";

const newChat = chatIds(9_850_000);
const bot = new TestBot("agenda");

/** The agenda messages in the transcript (the watcher's alert, with no runner here, is not one). */
const agendaEntries = async (stub: Stub, chatId: string) =>
  (await transcript(stub, chatId)).filter((e) => e.role === "bot" && e.text.startsWith("**Today**")).map((e) => e.text);
/** `HH:mm` of an instant in Berlin. */
const berlin = (at: number) => new Date(at).toLocaleTimeString("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" });

describe("the daily agenda", () => {
  it("sends the rest of the day's runs at its time, once, and arms the next day's; nothing on an empty day", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    // The jobs below missed yesterday's runs while the clock jumped a day: the log says so.
    const logs = quietConsole("log");
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const set = await must(stub.setAgenda(chatId, "08:00"));
    const at = Date.parse(set.next!);
    expect([set.agenda, berlin(at)]).toEqual(["08:00", "08:00"]);
    expect(await alarmOf(stub)).toBe(at);
    // The first day has no runs: no message, and the next day's agenda is armed.
    await advanceTo(stub, at);
    await runDurableObjectAlarm(stub);
    expect(await agendaEntries(stub, chatId)).toEqual([]);
    const next = Date.parse((await must(stub.getAgenda(chatId))).next!);
    expect(next - at).toBe(86_400_000);

    const water = await must(stub.createJob(chatId, { name: "Water the plants", kind: "prompt", cron: "0 9,18 * * *", text: "Water" }, "admin"));
    const dentist = await must(
      stub.createJob(chatId, { name: "Dentist", kind: "prompt", at: new Date(next + 5.5 * 3_600_000).toISOString(), text: "Call" }, "admin"),
    );
    await must(stub.createJob(chatId, { name: "Price", kind: "watcher", cron: "0 12 * * *", command: "true" }, "admin"));
    // The chat's one alarm is the soonest of its jobs and its agenda: today's 09:00 run comes first.
    expect(await alarmOf(stub)).toBe(Date.parse(water.nextRunAt!));
    await advanceTo(stub, next);
    await runDurableObjectAlarm(stub);
    const [message] = await agendaEntries(stub, chatId);
    const day = new Date(next).toLocaleDateString("en-GB", { timeZone: "Europe/Berlin", weekday: "short", day: "numeric", month: "short" }).replace(",", "");
    expect(message).toBe(
      [`**Today** (${day}, Europe/Berlin)`, "09:00 💬 Water the plants", "12:00 🔍 Price", "13:30 💬 Dentist", "18:00 💬 Water the plants"].join("\n"),
    );
    expect(dentist.name).toBe("Dentist");
    // Another alarm the same minute sends nothing more.
    await runDurableObjectAlarm(stub);
    expect(await agendaEntries(stub, chatId)).toHaveLength(1);
    expect(lines(logs)).toEqual([`job ${water.id}: missed runs (once): 2 missed, the latest run late`]);
    expect(Date.parse((await must(stub.getAgenda(chatId))).next!) - next).toBe(86_400_000);
  });

  it("moves to its time in the new zone when the chat's zone changes, and stops with null", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    const before = Date.parse((await must(stub.setAgenda(chatId, "07:30"))).next!);
    await must(stub.setTimeZone(chatId, "America/New_York"));
    const after = Date.parse((await must(stub.getAgenda(chatId))).next!);
    expect(new Date(after).toLocaleTimeString("en-GB", { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit" })).toBe("07:30");
    expect(after).not.toBe(before);
    expect(await must(stub.setAgenda(chatId, null))).toEqual({ agenda: null, next: null });
    expect(await stub.setAgenda(chatId, "25:00")).toEqual({
      ok: false,
      error: { code: "bad_request", message: `"agenda" must be a time of day as HH:mm, such as "08:00", or null for none.` },
    });
    expect(await clockOf(stub)).toBeGreaterThan(0);
  });
});

describe("/agenda", () => {
  it("shows, sets, refuses a time it cannot read and turns off, in the sender's language", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
    expect(await sayIn(bot, chat, "/agenda")).toBe(renderTelegramHtml("No daily agenda. /agenda 8:00 sends the rest of each day's runs at 8:00."));
    const set = await sayIn(bot, chat, "/agenda 7.30am");
    const next = Date.parse((await must(chat.stub.getAgenda(chat.chatId))).next!);
    const when = `${new Date(next).toLocaleDateString("en-GB", { timeZone: "Europe/Berlin", weekday: "short", day: "numeric", month: "short" }).replace(",", "")} 07:30`;
    expect(set).toBe(renderTelegramHtml(`Daily agenda at 07:30 (Europe/Berlin), when the day has runs; the first on ${when}.`));
    expect(await sayIn(bot, chat, "/agenda")).toBe(
      renderTelegramHtml("Daily agenda at 07:30 (Europe/Berlin): the rest of the day's runs, when there are any. /agenda off stops it."),
    );
    expect(await sayIn(bot, chat, "/agenda soon")).toBe(renderTelegramHtml(`I couldn't read "soon" as a time of day. Try /agenda 8:00 or /agenda off.`));
    const de = (await textsOf("de")).agenda;
    expect(await sayIn(bot, chat, `/agenda ${de.offWord}`, "de")).toBe(renderTelegramHtml(de.off));
    expect((await must(chat.stub.getAgenda(chat.chatId))).agenda).toBeNull();
  });
});
