/**
 * A delay (`PT20M`, `P1M`, `1d`) is now plus an ISO 8601 duration in the chat's zone, computed on the engine's
 * civil time: held here to Temporal's own ZonedDateTime arithmetic (the polyfill, as the reference) over zones
 * with DST changes, a half-hour one (Lord Howe), midnight ones (Santiago, Amman before 2022) and none, for
 * durations of every part, from instants around the changes.
 */
import { Temporal } from "@js-temporal/polyfill";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveDelay } from "../../src/time";
import { addDuration } from "../../src/time/at";

const ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Amman", "Asia/Tokyo", "UTC", "Pacific/Apia"];

/** Temporal's answer: the instant, or null when it throws. */
function reference(duration: string, zone: string, now: number): number | null {
  try {
    return Temporal.Instant.fromEpochMilliseconds(now).toZonedDateTimeISO(zone).add(Temporal.Duration.from(duration.toUpperCase())).epochMilliseconds;
  } catch {
    return null;
  }
}

const part = (max: number, unit: string) =>
  fc.option(
    fc.integer({ min: 0, max }).map((n) => `${n}${unit}`),
    { nil: "" },
  );

const duration = fc
  .tuple(
    part(6, "Y"),
    part(30, "M"),
    part(10, "W"),
    part(400, "D"),
    part(100, "H"),
    part(500, "M"),
    fc.option(
      fc.integer({ min: 0, max: 100_000 }).map((ms) => `${Math.floor(ms / 1000)}.${String(ms % 1000).padStart(3, "0")}S`),
      { nil: "" },
    ),
  )
  .map(([y, mo, w, d, h, mi, s]) => {
    const time = `${h}${mi}${s}`;
    return `P${y}${mo}${w}${d}${time ? `T${time}` : ""}`;
  })
  .filter((d) => d !== "P");

describe("a delay is Temporal's ZonedDateTime.add, computed on civil time", () => {
  it("for random durations, zones and instants (2019–2031)", async () => {
    await fc.assert(
      fc.asyncProperty(duration, fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2031, 0, 1) }), async (d, zone, now) => {
        expect(await addDuration(d, zone, now)).toBe(reference(d, zone, now));
      }),
      { numRuns: 3000 },
    );
  });

  it("from the hour before and after each DST change of the zones, a day, a month and an hour on", async () => {
    const changes: number[] = [];
    for (const zone of ZONES) {
      let t = Temporal.Instant.fromEpochMilliseconds(Date.UTC(2020, 0, 1)).toZonedDateTimeISO(zone);
      for (let k = 0; k < 16; k++) {
        const next = t.getTimeZoneTransition("next");
        if (!next) break;
        changes.push(next.epochMilliseconds);
        t = next;
      }
      for (const change of changes.splice(0)) {
        for (const offset of [-90, -60, -30, -1, 0, 1, 30, 60, 90]) {
          const now = change + offset * 60_000;
          for (const d of ["P1D", "P1M", "PT1H", "P1DT1H", "P1W", "P1Y", "PT24H", "P2DT30M"])
            expect(await addDuration(d, zone, now), `${d} ${zone} ${new Date(now).toISOString()}`).toBe(reference(d, zone, now));
        }
      }
    }
  });

  it("refuses what Temporal cannot hold, and keeps the delay's sentences", async () => {
    expect(await addDuration("P999999Y", "UTC", Date.UTC(2026, 0, 1))).toBeNull();
    expect(await addDuration("PT9999999999H", "UTC", Date.UTC(2026, 0, 1))).toBeNull();
    expect(await resolveDelay("P999999Y", "UTC", Date.UTC(2026, 0, 1))).toEqual({
      ok: false,
      error: '"delay" must be an ISO 8601 duration such as PT20M or P1DT2H; got "P999999Y".',
    });
  });
});
