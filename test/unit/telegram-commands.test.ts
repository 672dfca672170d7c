/** The chat commands' pure part (DESIGN §6): recognising commands, /remind and /every, the fixed texts. */
import { describe, expect, it } from "vitest";
import { helpText, parseCommand, parseEvery, parseRemind, shortDelay, statusText, timezoneShowText } from "../../src/telegram/commands";

describe("parseCommand", () => {
  it("reads /cmd and /cmd@botname the same, with the rest as args", () => {
    expect(parseCommand("/cancel k7m2q")).toEqual({ name: "cancel", args: "k7m2q" });
    expect(parseCommand("/cancel@CuckooBot k7m2q", "cuckoobot")).toEqual({ name: "cancel", args: "k7m2q" });
    expect(parseCommand("  /JOBS  ")).toEqual({ name: "jobs", args: "" });
  });

  it("leaves other text, unknown commands and another bot's commands to the agent", () => {
    expect(parseCommand("cancel k7m2q")).toBeNull();
    expect(parseCommand("/weather Berlin")).toBeNull();
    expect(parseCommand("/jobs@OtherBot", "CuckooBot")).toBeNull();
  });
});

describe("/remind and /every", () => {
  it("takes an at without spaces or a short or ISO delay, and names the job after its text", () => {
    expect(parseRemind("2026-12-01T09:00 Call the dentist")).toEqual({ when: { at: "2026-12-01T09:00" }, text: "Call the dentist", name: "Call the dentist" });
    expect(parseRemind("20m Stretch")).toEqual({ when: { delay: "PT20M" }, text: "Stretch", name: "Stretch" });
    expect(parseRemind("PT2H Check the oven")).toEqual({ when: { delay: "PT2H" }, text: "Check the oven", name: "Check the oven" });
    expect(["2h", "1d", "1w", "15x"].map(shortDelay)).toEqual(["PT2H", "P1D", "P1W", null]);
  });

  it("cuts the name to 80 characters and keeps the text whole", () => {
    const text = "a".repeat(100);
    const parsed = parseRemind(`1d ${text}`);
    expect(parsed).toEqual({ when: { delay: "P1D" }, text, name: `${"a".repeat(79)}…` });
  });

  it("answers a missing text with the usage sentence", () => {
    expect(parseRemind("20m")).toEqual({
      error: "Usage: /remind <when> <text>, where <when> is a date and time such as 2026-12-01T09:00 or a delay such as 20m, 2h or 1d.",
    });
  });

  it("takes a quoted cron or a macro", () => {
    expect(parseEvery('"0 8 * * 1-5" Summarise my inbox')).toEqual({ when: { cron: "0 8 * * 1-5" }, text: "Summarise my inbox", name: "Summarise my inbox" });
    expect(parseEvery("“0 8 * * 1-5” Summarise")).toEqual({ when: { cron: "0 8 * * 1-5" }, text: "Summarise", name: "Summarise" });
    expect(parseEvery("@daily Water the plants")).toEqual({ when: { cron: "@daily" }, text: "Water the plants", name: "Water the plants" });
    expect(parseEvery("0 8 * * * Summarise")).toEqual({
      error: 'Usage: /every "<cron>" <text>, such as /every "0 8 * * 1-5" Summarise my inbox, or a macro: /every @daily Water the plants.',
    });
  });
});

describe("fixed texts", () => {
  it("/timezone alone, default and own", () => {
    expect(timezoneShowText("Europe/Berlin", "UTC+02:00", true)).toBe(
      "Time zone: Europe/Berlin (UTC+02:00, default). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.",
    );
    expect(timezoneShowText("Asia/Tokyo", "UTC+09:00", false)).toBe(
      "Time zone: Asia/Tokyo (UTC+09:00). Change it with /timezone <IANA name>, e.g. /timezone America/New_York.",
    );
  });

  it("/status names the job count, zone, agent and runner", () => {
    expect(statusText({ jobs: 2, zone: "UTC", offset: "UTC+00:00", isDefault: true, agent: "echo", runner: "off", blocked: false })).toBe(
      "**Jobs:** 2\n**Time zone:** UTC (UTC+00:00, default)\n**Agent:** echo\n**Runner:** not configured",
    );
  });

  it("/help lists every command once", () => {
    const lines = helpText().split("\n").filter((l) => l.startsWith("/"));
    expect(lines.map((l) => l.split(":")[0])).toEqual(["/jobs", "/remind", "/every", "/run", "/pause", "/resume", "/cancel", "/timezone", "/status", "/help"]);
  });
});
