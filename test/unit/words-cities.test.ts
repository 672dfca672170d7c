/**
 * Cities by their names in the bot's eight languages (issue 33 item 3, docs/telegram.md `/timezone`): CLDR's
 * exemplar cities in src/words/cities/, as scripts/cldr-places.mjs writes them from cldr-dates-full (after an
 * upgrade of it, run `node scripts/cldr-places.mjs`), each language's loaded on first use: English's and the
 * sender's language's first, the others only for a name those do not know.
 */
import { describe, expect, it, vi } from "vitest";
import { placeZone, zonesFor } from "../../src/words";

const DECEMBER = Date.parse("2026-12-01T09:00:00Z");

/** The languages whose city file was imported, in order (each file's module is evaluated once). */
const { loaded, track } = vi.hoisted(() => {
  const loaded: string[] = [];
  const track = (lang: string, original: () => Promise<unknown>) => {
    loaded.push(lang);
    return original();
  };
  return { loaded, track };
});
vi.mock("../../src/words/cities/en", (original) => track("en", original));
vi.mock("../../src/words/cities/de", (original) => track("de", original));
vi.mock("../../src/words/cities/fr", (original) => track("fr", original));
vi.mock("../../src/words/cities/es", (original) => track("es", original));
vi.mock("../../src/words/cities/pt", (original) => track("pt", original));
vi.mock("../../src/words/cities/it", (original) => track("it", original));
vi.mock("../../src/words/cities/nl", (original) => track("nl", original));
vi.mock("../../src/words/cities/ru", (original) => track("ru", original));

// In order: what each reading loads depends on what the ones before it loaded.
describe("the languages' city names are loaded on first use", () => {
  it("English's path loads English's names only", async () => {
    expect(await placeZone("Berlin", DECEMBER, "en")).toEqual({ kind: "zone", zone: "Europe/Berlin" });
    expect(await placeZone("Ho Chi Minh City", DECEMBER)).toEqual({ kind: "zone", zone: "Asia/Ho_Chi_Minh" });
    expect(await placeZone("Deutschland", DECEMBER)).toEqual({ kind: "zone", zone: "Europe/Berlin" });
    // A zone's own name, and a link that names no place: no city names at all, or English's only.
    expect(await placeZone("Europe/Berlin", DECEMBER)).toEqual({ kind: "zone", zone: "Europe/Berlin" });
    expect(await placeZone("UTC", DECEMBER)).toEqual({ kind: "zone", zone: "UTC" });
    expect(loaded).toEqual(["en"]);
  });

  it("the sender's language's names with English's; another script's language only for a name they do not know", async () => {
    expect(await placeZone("Wien", DECEMBER, "de-AT")).toEqual({ kind: "zone", zone: "Europe/Vienna" });
    expect(loaded).toEqual(["en", "de"]);
    // A German who writes Moscow in Russian: Cyrillic is Russian's alone.
    expect(await placeZone("Москва", DECEMBER, "de")).toEqual({ kind: "zone", zone: "Europe/Moscow" });
    expect(loaded).toEqual(["en", "de", "ru"]);
  });

  it("a name no language's first files know tries every language written in its letters", async () => {
    // No sender's language (the page): English, then the others in Latin letters.
    expect(await placeZone("Lisbonne", DECEMBER)).toEqual({ kind: "zone", zone: "Europe/Lisbon" });
    expect([...loaded].sort()).toEqual(["de", "en", "es", "fr", "it", "nl", "pt", "ru"]);
  });
});

describe("a city by its name in each language", () => {
  const table: [string, string | null, string][] = [
    ["Wien", "de", "Europe/Vienna"],
    ["Москва", "ru", "Europe/Moscow"],
    ["Varsovie", "fr", "Europe/Warsaw"],
    ["Nueva York", "es", "America/New_York"],
    ["Lisboa", "pt", "Europe/Lisbon"],
    ["Mosca", "it", "Europe/Moscow"],
    ["Lissabon", "de", "Europe/Lisbon"],
    ["Lissabon", "nl", "Europe/Lisbon"],
    ["Варшава", "ru", "Europe/Warsaw"],
    // English's own (CLDR's en and its regional locales).
    ["Kolkata", "en", "Asia/Kolkata"],
    ["Saint Lucia", "en", "America/St_Lucia"],
    // Portugal's Portuguese as well as Brazil's.
    ["Moscovo", "pt-PT", "Europe/Moscow"],
    ["Nova Iorque", "pt", "America/New_York"],
    // Any of them with no language, or another one: Варшава for an English speaker, Wien for a Russian one.
    ["Варшава", null, "Europe/Warsaw"],
    ["Варшава", "en", "Europe/Warsaw"],
    ["Wien", "ru", "Europe/Vienna"],
    ["Nueva York", null, "America/New_York"],
  ];
  it.each(table)("%s (%s) → %s", async (input, language, zone) => {
    expect(await placeZone(input, DECEMBER, language)).toEqual({ kind: "zone", zone });
  });

  it("reads them as the IANA names are read: case, accents, hyphens and apostrophes do not matter", async () => {
    const spellings: [string, string][] = [
      ["Zürich", "Europe/Zurich"],
      ["zurich", "Europe/Zurich"],
      ["São Paulo", "America/Sao_Paulo"],
      ["Sao Paulo", "America/Sao_Paulo"],
      ["Mexiko-Stadt", "America/Mexico_City"],
      ["mexiko stadt", "America/Mexico_City"],
      ["МОСКВА", "Europe/Moscow"],
      ["Нью Йорк", "America/New_York"],
      ["N'Djamena", "Africa/Ndjamena"],
      ["N’Djamena", "Africa/Ndjamena"],
    ];
    for (const [input, zone] of spellings) expect(await placeZone(input, DECEMBER), input).toEqual({ kind: "zone", zone });
    expect(await placeZone("Zúrich", DECEMBER, "es")).toEqual({ kind: "zone", zone: "Europe/Zurich" });
    expect(await placeZone("nueva york", DECEMBER, "es")).toEqual({ kind: "zone", zone: "America/New_York" });
  });

  it("offers a name two places share as both", () => {
    // No two of CLDR's zones share a name in these languages today; a name another zone's city has is offered
    // with it, as a name two languages give different places would be.
    const texas = new Map([["paris", ["America/Chicago"]]]);
    expect(zonesFor("Paris", DECEMBER, [texas])).toEqual({ kind: "choices", zones: ["Europe/Paris", "America/Chicago"], offset: false });
    const other = new Map([["wien", ["America/New_York"]]]);
    const vienna = new Map([["wien", ["Europe/Vienna"]]]);
    expect(zonesFor("Wien", DECEMBER, [vienna, other])).toEqual({ kind: "choices", zones: ["America/New_York", "Europe/Vienna"], offset: false });
  });

  it("knows no more than before for a name no language has", async () => {
    expect(await placeZone("Atlantis", DECEMBER, "de")).toEqual({ kind: "unknown" });
    expect(await placeZone("Атлантида", DECEMBER)).toEqual({ kind: "unknown" });
  });
});

describe("the city files", () => {
  type Script = { buildCityFiles(): Map<string, string>; committedCityFiles(): Map<string, string> };
  it("are what scripts/cldr-places.mjs makes of the installed cldr-dates-full, file for file", async () => {
    const script: Script = await import(new URL("../../scripts/cldr-places.mjs", import.meta.url).href);
    const built = script.buildCityFiles();
    const committed = script.committedCityFiles();
    expect([...committed.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [name, text] of built) expect(committed.get(name) === text, `${name} differs: run node scripts/cldr-places.mjs`).toBe(true);
  }, 30_000);
});
