/**
 * DESIGN §12: nothing runs at module scope. Importing the time engine must create no `Intl` formatter and
 * load no Temporal and no cron-parser; the first use does. cron-parser is loaded from its parser's own file,
 * never through the package index (whose file parser requires node:fs).
 */
import { afterEach, describe, expect, it, vi } from "vitest";

let polyfillLoads = 0;
vi.mock("@js-temporal/polyfill", async (importActual) => {
  polyfillLoads++;
  return importActual();
});

let cronParserLoads = 0;
vi.mock("cron-parser/dist/CronExpressionParser.js", async (importActual) => {
  cronParserLoads++;
  return importActual();
});

let cronIndexLoads = 0;
vi.mock("cron-parser", async (importActual) => {
  cronIndexLoads++;
  return importActual();
});

const Original = Intl.DateTimeFormat;
afterEach(() => {
  Intl.DateTimeFormat = Original;
});

describe("loading the time engine", () => {
  it("creates no Intl formatter until a zone is used", async () => {
    vi.resetModules();
    let created = 0;
    Intl.DateTimeFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        created++;
      }
    } as typeof Original;
    const time = await import("../../src/time");
    expect(created).toBe(0);
    expect(time.formatOffset("Europe/Berlin", Date.UTC(2026, 6, 1))).toBe("UTC+02:00");
    expect(created).toBe(1);
  });

  it("loads no Temporal polyfill for a delay either: it is computed on civil time", async () => {
    vi.resetModules();
    const time = await import("../../src/time");
    expect(polyfillLoads).toBe(0);
    const at = await time.resolveDelay("P1MT20M", "UTC", Date.UTC(2026, 8, 26, 12));
    expect(at).toEqual({ ok: true, value: Date.UTC(2026, 9, 26, 12, 20) });
    expect(polyfillLoads).toBe(0);
  });

  it("loads cron-parser on the first cron, from its parser's file only, and refuses to parse before", async () => {
    vi.resetModules();
    const loadsBefore = cronParserLoads;
    const time = await import("../../src/time");
    expect(cronParserLoads).toBe(loadsBefore);
    expect(time.cronLoaded()).toBe(false);
    expect(() => time.parseCron("0 9 * * 1-5")).toThrow("cron-parser is not loaded: await loadCron() before parseCron");
    const shown = await time.preview({ cron: "0 9 * * 1-5" }, "UTC", Date.UTC(2026, 8, 26, 12), 1);
    expect(shown).toMatchObject({ ok: true, value: { occurrences: ["2026-09-28T09:00:00.000Z"] } });
    expect(cronParserLoads).toBe(loadsBefore + 1);
    expect(time.cronLoaded()).toBe(true);
    // Not cached as a failure by the refused attempt: the same text parses now.
    expect(time.parseCron("0 9 * * 1-5")).toMatchObject({ ok: true, value: { hours: [9], minutes: [0] } });
    expect(cronIndexLoads).toBe(0);
  });
});
