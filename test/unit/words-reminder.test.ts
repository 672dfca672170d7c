/**
 * What a reminder's words say besides its time (docs/telegram.md#nag-until-done, docs/telegram.md#notices-ahead), read
 * off the end of its text in each of the bot's eight languages; words about time inside the text stay text.
 */
import { describe, expect, it } from "vitest";
import { reminderWords } from "../../src/words";

const NAG = { every: "PT10M", times: 6 };
const DAY_HOUR = ["P1D", "PT1H"];

describe("a reminder's words", () => {
  it("read `until done` (every 10 minutes, 6 more times) or `every 5 minutes until done`, in each language", () => {
    expect(reminderWords("pills until done")).toEqual({ text: "pills", repeat: NAG });
    expect(reminderWords("pills every 5 minutes until done")).toEqual({ text: "pills", repeat: { every: "PT5M", times: 6 } });
    const nag = [
      "Tabletten bis erledigt",
      "cachets jusqu'à ce que ce soit fait",
      "pastillas hasta que esté hecho",
      "remédios até estar feito",
      "pillole finché non è fatto",
      "pillen tot het gedaan is",
      "таблетки пока не сделаю",
    ];
    expect(nag.map((t) => reminderWords(t).repeat)).toEqual(nag.map(() => NAG));
    expect(reminderWords("Tabletten alle 15 Minuten bis erledigt").repeat).toEqual({ every: "PT15M", times: 6 });
  });

  it("read notices `…, 1 day and 1 hour before`, in each language", () => {
    const said = [
      "dentist, 1 day and 1 hour before",
      "Zahnarzt, 1 Tag und 1 Stunde vorher",
      "dentiste, 1 jour et 1 heure avant",
      "dentista, 1 día y 1 hora antes",
      "dentista, 1 dia e 1 hora antes",
      "dentista, 1 giorno e 1 ora prima",
      "tandarts, 1 dag en 1 uur van tevoren",
      "зубной, за 1 день и 1 час",
    ];
    expect(said.map((t) => reminderWords(t).before)).toEqual(said.map(() => DAY_HOUR));
    expect(reminderWords("dentist, an hour before")).toEqual({ text: "dentist", before: ["PT1H"] });
    expect(reminderWords("pills every 10 minutes until done, 30 minutes before")).toEqual({ text: "pills", repeat: NAG, before: ["PT30M"] });
  });

  it("leave the text alone when those words are part of it", () => {
    for (const text of [
      "weekly report",
      "call mum before dinner",
      "read the book before",
      "water plants until done every day",
      "until done",
      "зайти за хлебом",
    ])
      expect(reminderWords(text)).toEqual({ text });
  });
});
