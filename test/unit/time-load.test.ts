/**
 * docs/operations.md: nothing runs at module scope. Importing the time engine must create no `Intl` formatter and
 * load no Temporal; the first use does. Cron needs no library at all (its parser is the engine's own): cron-parser
 * is never loaded. The rule engine is part of the time engine: a rule needs nothing loaded first.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

let polyfillLoads = 0;
vi.mock("@js-temporal/polyfill", async (importActual) => {
  polyfillLoads++;
  return importActual();
});

let cronParserLoads = 0;
vi.mock("cron-parser", async (importActual) => {
  cronParserLoads++;
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

  it("parses and walks cron with no library: cron-parser is never loaded", async () => {
    vi.resetModules();
    const time = await import("../../src/time");
    expect(time.parseCron("0 9 * * 1-5")).toMatchObject({ ok: true, value: { hours: [9], minutes: [0] } });
    const shown = await time.preview({ cron: "0 9 * * 1-5" }, "UTC", Date.UTC(2026, 8, 26, 12), 1);
    expect(shown).toMatchObject({ ok: true, value: { occurrences: ["2026-09-28T09:00:00.000Z"] } });
    expect(cronParserLoads).toBe(0);
  });

  it("reads a rule with nothing loaded first: the rule engine is imported with the rest", async () => {
    vi.resetModules();
    const time = await import("../../src/time");
    expect(time.parseRuleSchedule({ rrule: "FREQ=DAILY", start: "2026-09-27" }, "UTC")).toMatchObject({ ok: true });
    const shown = await time.preview({ rrule: "FREQ=DAILY", start: "2026-09-27" }, "UTC", Date.UTC(2026, 8, 26, 12), 1);
    expect(shown).toMatchObject({ ok: true, value: { occurrences: ["2026-09-27T09:00:00.000Z"] } });
  });
});
