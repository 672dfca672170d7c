/**
 * The chat commands' pure part (docs/telegram.md, issue 14): recognising commands, the fixed texts, /help with examples
 * computed from now, the sentences that quote what the user typed with two examples that work now, and a
 * reminder written in words (the eight languages) found in a message.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { helpText as helpIn, makesJob, parseCommand, statusText as statusIn } from "../../src/telegram/commands";
import { commandMenu, LISTED } from "../../src/telegram/menu";
import { readReminder } from "../../src/telegram/offer";
import { noTextText, understoodLine, usageOf } from "../../src/telegram/words";
import { ENGLISH } from "../../src/texts";
import { scheduleLine } from "./schedule-line";

const BERLIN = "Europe/Berlin";
/** Tuesday 1 December 2026, 10:00 in Berlin. */
const NOW = Date.parse("2026-12-01T09:00:00Z");
const helpText = (now: number, zone: string, agent: string) => helpIn(ENGLISH.t.help, now, zone, agent);
const statusText = (s: Parameters<typeof statusIn>[1]) => statusIn(ENGLISH.t.status, s);

describe("parseCommand", () => {
  it("reads /cmd and /cmd@botname the same, with the rest as args", () => {
    expect(parseCommand("/cancel k7m2q")).toEqual({ name: "cancel", args: "k7m2q" });
    expect(parseCommand("/cancel@CuckooBot k7m2q", "cuckoobot")).toEqual({ name: "cancel", args: "k7m2q" });
    expect(parseCommand("  /JOBS  ")).toEqual({ name: "jobs", args: "" });
  });

  it("knows the commands that make a job: /remind and /every", () => {
    const makers = LISTED.filter((name) => makesJob({ name, args: "" }));
    expect(makers).toEqual(["remind", "every"]);
    expect(makesJob(parseCommand("/start")!)).toBe(false);
  });

  it("leaves other text, unknown commands and another bot's commands to the agent", () => {
    expect(parseCommand("cancel k7m2q")).toBeNull();
    expect(parseCommand("/weather Berlin")).toBeNull();
    expect(parseCommand("/jobs@OtherBot", "CuckooBot")).toBeNull();
  });
});

describe("fixed texts", () => {
  it("/timezone alone, default and own", () => {
    expect(ENGLISH.t.zone.show("Europe/Berlin", "UTC+02:00", true)).toBe(
      "Time zone: Europe/Berlin (UTC+02:00, default). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.",
    );
    expect(ENGLISH.t.zone.show("Asia/Tokyo", "UTC+09:00", false)).toBe(
      "Time zone: Asia/Tokyo (UTC+09:00). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.",
    );
  });

  it("/status names the job count, zone, agent and runner", () => {
    expect(statusText({ jobs: 2, zone: "UTC", offset: "UTC+00:00", isDefault: true, agent: "echo", runner: "off", blocked: false })).toBe(
      "**Jobs:** 2\n**Time zone:** UTC (UTC+00:00, default)\n**Agent:** echo\n**Runner:** not configured",
    );
  });

  it("/help lists every command once, the menu's order", () => {
    const lines = helpText(NOW, BERLIN, "llm")
      .split("\n")
      .filter((l) => l.startsWith("/"));
    expect(lines.map((l) => l.split(":")[0])).toEqual([
      "/jobs",
      "/remind",
      "/every",
      "/edit",
      "/skip",
      "/run",
      "/pause",
      "/resume",
      "/cancel",
      "/hook",
      "/calendar",
      "/model",
      "/agenda",
      "/quiet",
      "/timezone",
      "/language",
      "/status",
      "/help",
    ]);
    expect(commandMenu(ENGLISH.t.help).map((c) => `/${c.command}`)).toEqual(lines.map((l) => l.split(":")[0]));
  });

  it("/help is what docs/telegram.md shows, for its week (1 December 2026 in Berlin) and without a model", () => {
    const docs = readFileSync(new URL("../../docs/telegram.md", import.meta.url), "utf8");
    const shown = docs.split("### `/start`, `/help`")[1]!.split("```\n")[1]!.replace(/\n$/, "");
    expect(helpText(NOW, BERLIN, "echo")).toBe(shown);
  });

  it("/help's examples are relative to now: the dated one is a week ahead in the chat's zone, never past", () => {
    const help = helpText(NOW, BERLIN, "llm").split("\n");
    expect(help.find((l) => l.startsWith("/remind:"))).toBe(
      "/remind: a one-off prompt: /remind 20m stretch, /remind tomorrow 9:00 call mum, /remind 2026-12-08 14:30 dentist, /remind monday 9am standup",
    );
    // 23:30 on 31 Dec in Berlin is already 1 Jan 00:30 in Tokyo: each zone's own week ahead.
    const newYear = Date.parse("2026-12-31T22:30:00Z");
    expect(helpText(newYear, BERLIN, "llm")).toContain("/remind 2027-01-07 14:30 dentist");
    expect(helpText(newYear, "Asia/Tokyo", "llm")).toContain("/remind 2027-01-08 14:30 dentist");
    expect(helpText(NOW, BERLIN, "llm").split("\n").at(-1)).toBe("Anything else you write goes to the agent.");
    expect(helpText(NOW, BERLIN, "echo").split("\n").at(-1)).toBe(
      'No model is configured: a message such as "remind me tomorrow at 9 to call mum" is offered as a reminder.',
    );
  });
});

// The sentences for a schedule not understood are the words': test/unit/words-sentences.test.ts.
describe("sentences in the user's words, with two examples that work now", () => {
  it("usage, no text, /every and /timezone", async () => {
    expect(await usageOf(ENGLISH, "remind")).toBe(
      "/remind needs a time and then the text of the reminder. Try /remind tomorrow 9:00 call mum or /remind 2h call mum.",
    );
    expect(await usageOf(ENGLISH, "every")).toBe(
      "/every needs a schedule and then the text to send. Try /every day at 8:00 summarise the news or /every weekdays at 8:30 summarise the news.",
    );
    expect(await noTextText(ENGLISH, "remind", "tomorrow 9am")).toBe(
      '"tomorrow 9am" needs a text after it: what should I send then? Try /remind tomorrow 9am call mum or /remind 2h call mum.',
    );
    expect(await noTextText(ENGLISH, "every", "weekdays at 8:30")).toBe(
      '"weekdays at 8:30" needs a text after it: what should I send then? Try /every weekdays at 8:30 summarise the news or /every day at 8:00 summarise the news.',
    );
    expect(ENGLISH.t.zone.unknown("Mars/Olympus")).toBe(
      'I don\'t know a time zone or place called "Mars/Olympus". Try /timezone Berlin or /timezone America/New_York.',
    );
  });

  it("the understood time: weekday, zone and how far", () => {
    expect(understoodLine(ENGLISH, Date.parse("2026-12-01T12:48:00Z"), BERLIN, NOW)).toBe("⏰ Tue 1 Dec 13:48 (Europe/Berlin), in 3 h 48 min");
  });
});

describe("a reminder written in words", () => {
  const table: [string, string | null][] = [
    ["remind me tomorrow at 9 to call the dentist", "2026-12-02T08:00:00.000Z call the dentist"],
    ["Remind me to call the dentist tomorrow at 9", "2026-12-02T08:00:00.000Z call the dentist"],
    ["please remind me in 2 hours to check the oven.", "2026-12-01T11:00:00.000Z check the oven"],
    ["erinnere mich morgen um 9 an den Zahnarzt", "2026-12-02T08:00:00.000Z an den Zahnarzt"],
    ["rappelle-moi demain à 9h d'appeler maman", "2026-12-02T08:00:00.000Z appeler maman"],
    ["recuérdame mañana a las 9 llamar a mamá", "2026-12-02T08:00:00.000Z llamar a mamá"],
    ["lembra-me amanhã às 9 de ligar para a mãe", "2026-12-02T08:00:00.000Z ligar para a mãe"],
    ["напомни мне завтра в 9 позвонить маме", "2026-12-02T08:00:00.000Z позвонить маме"],
    ["нагадай мені завтра о 9 подзвонити мамі", "2026-12-02T08:00:00.000Z подзвонити мамі"],
    ["リマインド 明日9時にお母さんに電話", "2026-12-02T08:00:00.000Z お母さんに電話"],
    // Not a reminder: no request, no time, a time already past, nothing to remind of.
    ["call the dentist tomorrow at 9", null],
    ["remind me to call the dentist", null],
    ["remind me yesterday at 9 to call", null],
    ["remind me tomorrow at 9", null],
  ];
  it.each(table)("%s → %s", async (message, expected) => {
    const found = await readReminder(message, BERLIN, NOW);
    const at = found?.timing.schedule.type === "at" ? found.timing.schedule.at : null;
    expect(found && `${new Date(at!).toISOString()} ${found.text}`).toBe(expected);
  });

  // Words that repeat make the recurring job /every would make (issue 31 item 2), in each language.
  const repeated: [string, string][] = [
    ["remind me every monday at 9 to water the plants", "cron 0 9 * * 1 | water the plants"],
    ["remind me to water the plants every monday at 9", "cron 0 9 * * 1 | water the plants"],
    ["remind me every weekday at 8:30 to check the inbox until March", "cron 30 8 * * 1-5 until 2027-02-28T23:59 | check the inbox"],
    ["erinnere mich jeden Montag um 9 die Pflanzen zu gießen", "cron 0 9 * * 1 | die Pflanzen zu gießen"],
    ["rappelle-moi tous les lundis à 9h d'arroser les plantes", "cron 0 9 * * 1 | arroser les plantes"],
    ["recuérdame todos los lunes a las 9 regar las plantas", "cron 0 9 * * 1 | regar las plantas"],
    ["lembra-me toda segunda às 9 de regar as plantas", "cron 0 9 * * 1 | regar as plantas"],
    ["ricordami ogni lunedì alle 9 di annaffiare le piante", "cron 0 9 * * 1 | annaffiare le piante"],
    ["herinner me elke maandag om 9 om de planten water te geven", "cron 0 9 * * 1 | de planten water te geven"],
    ["напомни мне каждый понедельник в 9 полить цветы", "cron 0 9 * * 1 | полить цветы"],
    ["напомни мне каждые 2 недели по понедельникам полить цветы", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | полить цветы"],
  ];
  it.each(repeated)("%s → %s", async (message, expected) => {
    const found = await readReminder(message, BERLIN, NOW);
    expect(found && `${scheduleLine(found.timing)} | ${found.text}`).toBe(expected);
  });
});
