/**
 * Cities by their names in the bot's eight languages (issue 33 item 3): CLDR's exemplar cities in
 * src/words/cities/, as scripts/cldr-places.mjs writes them from cldr-dates-full (after an upgrade of it, run
 * `node scripts/cldr-places.mjs`).
 */
import { describe, expect, it } from "vitest";

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
