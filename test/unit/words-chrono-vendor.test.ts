/**
 * chrono-node's locales in src/words/vendor/chrono/ are what scripts/vendor-chrono.mjs builds from the installed
 * chrono-node (issue 24 item 7): after an upgrade of chrono-node or esbuild, run `node scripts/vendor-chrono.mjs`.
 * The vendored locales read as chrono reads, less the "N units ago" parser.
 */
import { describe, expect, it } from "vitest";

type Vendor = { buildChronoLocales(): Promise<Map<string, string>>; vendoredFiles(): Map<string, string> };

describe("the vendored chrono-node locales", () => {
  it("are the build of the installed chrono-node, file for file", async () => {
    const script: Vendor = await import(new URL("../../scripts/vendor-chrono.mjs", import.meta.url).href);
    const built = await script.buildChronoLocales();
    const vendored = script.vendoredFiles();
    expect([...vendored.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [name, text] of built) expect(vendored.get(name) === text, `${name} differs: run node scripts/vendor-chrono.mjs`).toBe(true);
  }, 30_000);

  it("read no past durations, and dates as chrono does", async () => {
    const { casual } = await import("../../src/words/vendor/chrono/en.mjs");
    const ref = { instant: new Date("2026-12-01T09:00:00Z"), timezone: 60 };
    // "ago" is not understood: no past instant comes of it (chrono-node's own English reads 28 Nov).
    expect(casual.parse("3 days ago", ref, { forwardDate: true }).map((r) => `${r.text} ${r.date().toISOString()}`)).toEqual([
      "3 days 2026-12-04T09:00:00.000Z",
    ]);
    expect(casual.parse("tomorrow 9am", ref, { forwardDate: true })[0]?.date().toISOString()).toBe("2026-12-02T08:00:00.000Z");
  });
});
