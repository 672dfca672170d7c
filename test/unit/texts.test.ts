/**
 * The replies' tables (src/texts/, docs/telegram.md#language): each of the eight languages has every key of
 * English's, of the same kind (a text, or a function taking as many values), and nothing English's lacks; each
 * loads on its own, and the English path loads no other.
 */
import { describe, expect, it } from "vitest";
import { textsOf } from "../../src/texts";
import { ENGLISH_DATES } from "../../src/time";
import { LANGS, readSchedule } from "../../src/words";

/** Every key of a table, with what it holds: `text`, `fn/<arity>`, or the keys of a section. */
function shape(table: Record<string, unknown>, path = ""): string[] {
  return Object.entries(table).flatMap(([key, value]) => {
    const at = `${path}${key}`;
    if (typeof value === "function") return [`${at}: fn/${value.length}`];
    if (typeof value === "string") return [`${at}: text`];
    return shape(value as Record<string, unknown>, `${at}.`);
  });
}

describe("the replies' tables", () => {
  it.each(LANGS.filter((l) => l !== "en"))("%s has every key of English's, of the same kind, and no other", async (lang) => {
    expect(shape(await textsOf(lang))).toEqual(shape(await textsOf("en")));
  });

  it("no two languages share a text (a table copied without translating fails)", async () => {
    const english = await textsOf("en");
    for (const lang of LANGS.filter((l) => l !== "en")) {
      const other = await textsOf(lang);
      expect(other.quiet.none, lang).not.toBe(english.quiet.none);
      expect(other.language.auto, lang).not.toBe(english.language.auto);
      expect(other.quiet.show("22:00–07:00", "UTC"), lang).not.toBe(english.quiet.show("22:00–07:00", "UTC"));
    }
  });
});

/** The `/remind` and `/every` examples in a text: `/every weekdays at 8:30 check my inbox`, up to the next `,` or `;`. */
function examplesIn(text: string): { command: "remind" | "every"; args: string }[] {
  return [...text.matchAll(/\/(remind|every) ([^,;]+)/g)].map((m) => ({ command: m[1] as "remind" | "every", args: m[2]!.trim() }));
}

describe("the examples a table shows", () => {
  const now = Date.UTC(2026, 11, 7, 10, 0);
  it.each(LANGS)("%s: every /remind and /every example in the menu and /help reads as a schedule and a text, in its language", async (lang) => {
    const t = await textsOf(lang);
    const shown = [t.help.menu.remind, t.help.menu.every, t.help.examples.remind("2026-12-14"), t.help.examples.every].flatMap(examplesIn);
    expect(shown.length, lang).toBeGreaterThanOrEqual(6);
    for (const { command, args } of shown) {
      const read = await readSchedule(args, { zone: "Europe/Berlin", now, language: lang, recurring: command === "every" });
      expect(read.ok && read.value.rest !== "", `/${command} ${args}`).toBe(true);
      if (read.ok) expect(read.value.schedule.type === "at", `/${command} ${args}`).toBe(command === "remind");
    }
  });
});

describe("English's dates", () => {
  it("are the time engine's own (ENGLISH_DATES, which the engine cannot take from a table): the same names and sentences", async () => {
    const { dates } = await textsOf("en");
    expect([dates.weekdays, dates.months, dates.underAMinute]).toEqual([ENGLISH_DATES.weekdays, ENGLISH_DATES.months, ENGLISH_DATES.underAMinute]);
    for (const [day, month, year] of [
      [1, "Jan", ""],
      [31, "Dec", "2027"],
    ] as const)
      expect(dates.dayMonth(day, month, year)).toBe(ENGLISH_DATES.dayMonth(day, month, year));
    expect(dates.weekdayDay("Tue", "1 Dec")).toBe(ENGLISH_DATES.weekdayDay("Tue", "1 Dec"));
    for (const [a, b] of [
      [1, 0],
      [3, 48],
      [2, 4],
    ] as const) {
      expect([dates.inMinutes(a), dates.inHours(a, b), dates.inDays(a, b)]).toEqual([
        ENGLISH_DATES.inMinutes(a),
        ENGLISH_DATES.inHours(a, b),
        ENGLISH_DATES.inDays(a, b),
      ]);
    }
  });
});
