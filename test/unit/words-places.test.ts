/**
 * Zones by place (docs/telegram.md `/timezone Berlin`, issue 14): a city or country that names one zone, the likely
 * zones of a name with several, and the zones an offset fits at a given instant (in December: Berlin UTC+1,
 * Kyiv and Cairo UTC+2; in July: Berlin UTC+2).
 */
import { describe, expect, it } from "vitest";
import { parseOffset, zonesFor } from "../../src/words";
import { normalisePlace } from "../../src/words/places";

const DECEMBER = Date.parse("2026-12-01T09:00:00Z");
const JULY = Date.parse("2026-07-01T09:00:00Z");

describe("a place that names one zone", () => {
  const table: [string, string][] = [
    ["Berlin", "Europe/Berlin"],
    ["Paris", "Europe/Paris"],
    ["Kiev", "Europe/Kyiv"],
    ["Kyiv", "Europe/Kyiv"],
    ["New York", "America/New_York"],
    ["new_york", "America/New_York"],
    ["Tokyo", "Asia/Tokyo"],
    ["São Paulo", "America/Sao_Paulo"],
    ["sao paulo", "America/Sao_Paulo"],
    ["Calcutta", "Asia/Kolkata"],
    ["Munich", "Europe/Berlin"],
    ["San Francisco", "America/Los_Angeles"],
    // Countries, in English and the other languages, where every zone keeps one clock.
    ["Germany", "Europe/Berlin"],
    ["Deutschland", "Europe/Berlin"],
    ["Allemagne", "Europe/Berlin"],
    ["Germania", "Europe/Berlin"],
    ["Duitsland", "Europe/Berlin"],
    ["Japan", "Asia/Tokyo"],
    ["日本", "Asia/Tokyo"],
    ["India", "Asia/Kolkata"],
    ["UK", "Europe/London"],
    ["Argentina", "America/Argentina/Buenos_Aires"],
  ];
  it.each(table)("%s → %s", (input, zone) => {
    expect(zonesFor(input, DECEMBER)).toEqual({ kind: "zone", zone });
  });
});

describe("a name with several zones: one per clock, the likely first", () => {
  it("the United States: eight clocks, Eastern first", () => {
    const us = [
      "America/New_York",
      "America/Chicago",
      "America/Denver",
      "America/Phoenix",
      "America/Los_Angeles",
      "America/Anchorage",
      "Pacific/Honolulu",
      "America/Adak",
    ];
    expect(zonesFor("United States", DECEMBER)).toEqual({ kind: "choices", zones: us, offset: false });
    expect(zonesFor("USA", DECEMBER)).toEqual({ kind: "choices", zones: us, offset: false });
  });

  it("Ukraine, Spain, Brazil, Россия", () => {
    expect(zonesFor("Ukraine", DECEMBER)).toEqual({ kind: "choices", zones: ["Europe/Kyiv", "Europe/Simferopol"], offset: false });
    expect(zonesFor("Spain", DECEMBER)).toEqual({ kind: "choices", zones: ["Europe/Madrid", "Atlantic/Canary"], offset: false });
    expect(zonesFor("Brazil", DECEMBER)).toEqual({
      kind: "choices",
      zones: ["America/Sao_Paulo", "America/Manaus", "America/Noronha", "America/Rio_Branco"],
      offset: false,
    });
    const russia = zonesFor("Россия", DECEMBER);
    expect(russia.kind === "choices" && russia.zones.slice(0, 3)).toEqual(["Europe/Moscow", "Europe/Kaliningrad", "Europe/Samara"]);
  });

  it("a city name two places have", () => {
    expect(zonesFor("Portland", DECEMBER)).toEqual({ kind: "choices", zones: ["America/New_York", "America/Los_Angeles"], offset: false });
  });
});

describe("an offset: the zones on it now, then the fixed Etc zone", () => {
  it("UTC+2 in December: Kyiv's clock, Cairo's, Johannesburg's, and Etc/GMT-2", () => {
    expect(zonesFor("UTC+2", DECEMBER)).toEqual({ kind: "choices", zones: ["Europe/Kyiv", "Africa/Cairo", "Africa/Johannesburg", "Etc/GMT-2"], offset: true });
  });

  it("GMT+1 in December is Berlin's; in July Berlin is on UTC+2 and London on UTC+1", () => {
    expect(zonesFor("GMT+1", DECEMBER)).toEqual({ kind: "choices", zones: ["Europe/Berlin", "Africa/Lagos", "Etc/GMT-1"], offset: true });
    const july = zonesFor("GMT+1", JULY);
    expect(july.kind === "choices" && july.zones[0]).toBe("Europe/London");
    expect(july.kind === "choices" && july.zones).not.toContain("Europe/Berlin");
  });

  it("zones of one clock are one button, named after the biggest city (UTC+9: Tokyo, not Yakutsk or Seoul)", () => {
    expect(zonesFor("UTC+9", DECEMBER)).toEqual({ kind: "choices", zones: ["Asia/Tokyo", "Etc/GMT-9"], offset: true });
  });

  it("half hours have no Etc zone", () => {
    expect(zonesFor("+05:30", DECEMBER)).toEqual({ kind: "choices", zones: ["Asia/Kolkata"], offset: true });
  });

  it("reads UTC±h, GMT±h, ±hh:mm and the minus sign", () => {
    expect(["UTC+2", "GMT+1", "utc -5", "+05:30", "UTC\u22123", "UTC+15", "UTC+2:75"].map(parseOffset)).toEqual([120, 60, -300, 330, -180, null, null]);
  });
});

describe("what is not known", () => {
  it("answers unknown for a name of nothing", () => {
    expect(zonesFor("Mars", DECEMBER)).toEqual({ kind: "unknown" });
    expect(zonesFor("   ", DECEMBER)).toEqual({ kind: "unknown" });
  });

  it("compares names without accents, case, underscores or dots", () => {
    expect(normalisePlace("  São_Paulo ")).toBe("sao paulo");
    expect(normalisePlace("St. Petersburg")).toBe("st petersburg");
  });
});
