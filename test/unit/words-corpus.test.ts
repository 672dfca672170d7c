/**
 * The development corpus (issue 31 item 3): in each of the eight languages, phrases as reminder and calendar
 * products document them and other parsers test them (test/fixtures/phrases/<lang>.json names each one's source),
 * each with the schedule it documents in Cuckoo's simplest form and a text after it. Each is read as the command it
 * is marked for; none may be read as something else (a misreading costs a missed reminder), and at least 95% in
 * each language must be read as documented, the rest refused. Prints nothing.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSchedule } from "../../src/words";
import { scheduleLine } from "./schedule-line";

type Entry = { phrase: string; command: "every" | "remind"; schedule: string; text: string; source: string; now?: string };
type Corpus = { zone: string; now: string; sources: Record<string, string>; phrases: Entry[] };

const LANGS = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"] as const;

/** What the reader made of an entry: read as documented, refused, or read as something else (with what). */
async function outcome(e: Entry, corpus: Corpus, language: string): Promise<"read" | "refused" | string> {
  const now = Date.parse(e.now ?? corpus.now);
  const r = await readSchedule(`${e.phrase} ${e.text}`, { zone: corpus.zone, now, language, recurring: e.command === "every" });
  if (!r.ok) return "refused";
  const got = scheduleLine(r.value);
  return got === e.schedule && r.value.rest === e.text ? "read" : `${e.phrase}: ${got} | ${r.value.rest}`;
}

describe("the development corpus", () => {
  it.each(LANGS)("%s: none misread, at least 95% read as documented", { timeout: 60_000 }, async (lang) => {
    const corpus = JSON.parse(readFileSync(new URL(`../fixtures/phrases/${lang}.json`, import.meta.url), "utf8")) as Corpus;
    for (const e of corpus.phrases) expect(corpus.sources[e.source], `${e.phrase}: its source`).toBeDefined();
    const outcomes = await Promise.all(corpus.phrases.map((e) => outcome(e, corpus, lang)));
    const misread = outcomes.filter((o) => o !== "read" && o !== "refused");
    expect(misread).toEqual([]);
    const read = outcomes.filter((o) => o === "read").length;
    expect(read / corpus.phrases.length).toBeGreaterThanOrEqual(0.95);
  });

  it("holds at least 300 phrases across the eight languages", () => {
    const sizes = LANGS.map(
      (lang) => (JSON.parse(readFileSync(new URL(`../fixtures/phrases/${lang}.json`, import.meta.url), "utf8")) as Corpus).phrases.length,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(300);
  });
});
