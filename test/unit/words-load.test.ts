/**
 * Issue 24 item 7: start-up does not grow. Importing the time engine loads no phrase table and no chrono-node
 * locale; a phrase loads only the tables and locales it needs, and the English path none of the others.
 */
import { describe, expect, it, vi } from "vitest";

// vi.mock calls are hoisted above the file's own declarations: what they use is hoisted with them.
const { loads, counted } = vi.hoisted(() => {
  const loads = new Map<string, number>();
  const counted = (name: string) => async (importActual: () => Promise<unknown>) => {
    loads.set(name, (loads.get(name) ?? 0) + 1);
    return importActual();
  };
  return { loads, counted };
});

vi.mock("../../src/words/lang/en", counted("table en"));
vi.mock("../../src/words/lang/de", counted("table de"));
vi.mock("../../src/words/lang/fr", counted("table fr"));
vi.mock("../../src/words/lang/es", counted("table es"));
vi.mock("../../src/words/lang/pt", counted("table pt"));
vi.mock("../../src/words/lang/it", counted("table it"));
vi.mock("../../src/words/lang/nl", counted("table nl"));
vi.mock("../../src/words/lang/ru", counted("table ru"));
vi.mock("../../src/vendor/chrono/en.mjs", counted("chrono en"));
vi.mock("../../src/vendor/chrono/de.mjs", counted("chrono de"));
vi.mock("../../src/vendor/chrono/fr.mjs", counted("chrono fr"));
vi.mock("../../src/vendor/chrono/es.mjs", counted("chrono es"));
vi.mock("../../src/vendor/chrono/pt.mjs", counted("chrono pt"));
vi.mock("../../src/vendor/chrono/it.mjs", counted("chrono it"));
vi.mock("../../src/vendor/chrono/nl.mjs", counted("chrono nl"));
vi.mock("../../src/vendor/chrono/ru.mjs", counted("chrono ru"));
vi.mock("../../src/vendor/chrono/uk.mjs", counted("chrono uk"));
vi.mock("../../src/vendor/chrono/ja.mjs", counted("chrono ja"));

const NOW = Date.parse("2026-12-01T09:00:37Z");

describe("what a phrase loads", () => {
  it("nothing at import; then each phrase only what it needs, and English none of the others", async () => {
    const time = await import("../../src/words");
    expect([...loads.keys()], "at import").toEqual([]);
    // Module factories run once per file, so each step shows what it added to what the steps before loaded.
    const added = async (text: string, options: { recurring?: boolean; language?: string } = {}) => {
      const before = new Set(loads.keys());
      const read = await time.readSchedule(text, { zone: "Europe/Berlin", now: NOW, ...options });
      expect(read.ok, text).toBe(true);
      return [...loads.keys()].filter((k) => !before.has(k)).sort();
    };
    expect(await added('"0 8 * * 1-5" x', { recurring: true })).toEqual([]);
    expect(await added("every day at 8 x", { recurring: true })).toEqual(["table en"]);
    expect(await added("every day at 8 until 31 dec x", { recurring: true })).toEqual(["chrono en"]);
    // Parts of the day, windows, fractions and spans are the table's words: no other table, no other locale.
    for (const text of ["every evening at 8 x", "every 2 hours from 9 to 17 x", "every hour and a half x", "every day at 9 for 5 days x", "every quarter x"]) {
      expect(await added(text, { recurring: true }), text).toEqual([]);
    }
    expect(await added("tomorrow 9am x")).toEqual([]);
    expect(await added("every other tuesday at 10 x")).toEqual([]);
    expect(await added("jeden Tag um 8 x", { recurring: true, language: "de" })).toEqual(["table de"]);
    expect(await added("jeden Tag um 8 bis 31. Dezember x", { recurring: true, language: "de-CH" })).toEqual(["chrono de"]);
    expect(await added("каждый день в 9 x", { recurring: true })).toEqual(["table ru"]);
    // Cyrillic is read in Russian and Ukrainian, the longer reading winning (`when.ts`).
    expect(await added("завтра в 9 x")).toEqual(["chrono ru", "chrono uk"]);
  });
});
