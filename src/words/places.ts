/**
 * @module Time zones by place (docs/telegram.md `/timezone Berlin`): a city or a country that names one zone, the likely
 * zones of a country or name that has several, and the zones an offset (`UTC+2`, `GMT+1`) fits now. The data is
 * the runtime's own: IANA names from `Intl.supportedValuesOf`, country names in ten languages from
 * `Intl.DisplayNames`, a country's zones from `Intl.Locale`; only big cities that are not zone names, and the
 * zones preferred as a group's representative, are listed by hand (`place-names.ts`). Cities by the names the bot's eight languages
 * give them (`Wien`, `Москва`, `Nueva York`) are CLDR's exemplar cities, one file per language in `cities/`
 * (written by scripts/cldr-places.mjs), each loaded on first use: English's and the sender's language's first,
 * the others only for a name those do not know. Zones that keep the same clock all year (Europe/Berlin and
 * Europe/Busingen) count as one. Built on first use, never at module scope.
 */
import { loadOnce } from "../lazy";
import { CURRENT_NAMES, formatOffset, offsetAt, parseZone } from "../time/zone";
import type { ExemplarCities } from "./cities/types";
import { type Lang, langOf, langsFor } from "./lang";
import { CITIES, COUNTRY_ALIASES, PREFERRED } from "./place-names";

/** One zone; several to choose from (`offset` when the input was one); or nothing known by that name. */
export type PlaceAnswer = { kind: "zone"; zone: string } | { kind: "choices"; zones: string[]; offset: boolean } | { kind: "unknown" };

/** At most this many buttons: enough for the United States' eight clocks and most of Russia's eleven. */
export const MAX_CHOICES = 12;

/**
 * `são paulo` → `sao paulo`, `New_York` → `new york`, `Нью-Йорк` → `нью йорк`, `N’Djamena` → `n'djamena`: how names
 * are compared (scripts/cldr-places.mjs compares as this does).
 */
export function normalisePlace(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[_.,-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Normalised name → zones, of one language's exemplar cities. */
type CityNames = ReadonlyMap<string, readonly string[]>;

function cityNames(cities: ExemplarCities): CityNames {
  const names = new Map<string, string[]>();
  for (const [zone, ...spellings] of cities) {
    for (const spelling of spellings) {
      const key = normalisePlace(spelling);
      const list = names.get(key) ?? [];
      if (!list.includes(zone)) names.set(key, [...list, zone]);
    }
  }
  return names;
}

/** Each language's exemplar cities; one literal specifier each, so that the bundler keeps each behind its own lazy wrapper. */
const citiesOf = loadOnce<Lang, CityNames>({
  en: async () => cityNames((await import("./cities/en")).cities),
  de: async () => cityNames((await import("./cities/de")).cities),
  fr: async () => cityNames((await import("./cities/fr")).cities),
  es: async () => cityNames((await import("./cities/es")).cities),
  pt: async () => cityNames((await import("./cities/pt")).cities),
  it: async () => cityNames((await import("./cities/it")).cities),
  nl: async () => cityNames((await import("./cities/nl")).cities),
  ru: async () => cityNames((await import("./cities/ru")).cities),
});

let preferredRank: Map<string, number> | undefined;
let currentNames: Map<string, string> | undefined;
let zoneByCity: Map<string, string[]> | undefined;
let countryByName: Map<string, string> | undefined;

/** A runtime's old link (Europe/Kiev) as its current name (Europe/Kyiv). */
function current(zone: string): string {
  if (!currentNames) {
    currentNames = new Map();
    for (const name of CURRENT_NAMES) {
      try {
        currentNames.set(new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone, name);
      } catch {
        // A runtime without the name: nothing to map.
      }
    }
  }
  return currentNames.get(zone) ?? zone;
}

function cities(): Map<string, string[]> {
  if (!zoneByCity) {
    zoneByCity = new Map();
    const add = (key: string, zone: string) => {
      const list = zoneByCity!.get(key) ?? [];
      if (!list.includes(zone)) zoneByCity!.set(key, [...list, zone]);
    };
    for (const raw of [...Intl.supportedValuesOf("timeZone"), ...CURRENT_NAMES]) {
      if (!raw.includes("/") || raw.startsWith("Etc/")) continue;
      const zone = current(raw);
      add(normalisePlace(raw.split("/").pop()!), zone);
      // The old spelling finds the current name too (Kiev → Europe/Kyiv).
      if (zone !== raw) add(normalisePlace(zone.split("/").pop()!), zone);
    }
    for (const [name, zones] of Object.entries(CITIES)) for (const zone of zones) add(name, zone);
  }
  return zoneByCity;
}

/** The bot's eight languages (src/words/lang), and Ukrainian and Japanese. */
const LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "ja"];

/** Country names in ten languages → region code (`germany`, `deutschland`, `allemagne`, `germania` → DE). */
function countries(): Map<string, string> {
  if (!countryByName) {
    countryByName = new Map(Object.entries(COUNTRY_ALIASES).map(([name, code]) => [normalisePlace(name), code]));
    const names = LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: "region", fallback: "none" }));
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (const a of letters) {
      for (const b of letters) {
        for (const dn of names) {
          let name: string | undefined;
          try {
            name = dn.of(a + b);
          } catch {
            name = undefined;
          }
          if (name && !countryByName.has(normalisePlace(name))) countryByName.set(normalisePlace(name), a + b);
        }
      }
    }
  }
  return countryByName;
}

/** A country's zones, as the runtime knows them (`Intl.Locale` has a getter or, newer, a method). */
function countryZones(code: string): string[] {
  const locale = new Intl.Locale(`und-${code}`) as Intl.Locale & { timeZones?: string[]; getTimeZones?: () => string[] };
  const zones = locale.getTimeZones?.() ?? locale.timeZones ?? [];
  return zones.map(current);
}

function rank(zone: string): number {
  preferredRank ??= new Map(PREFERRED.map((z, i) => [z, i]));
  return preferredRank.get(zone) ?? PREFERRED.length;
}

/** The zone's offsets at now and at the start of each of the next twelve months: equal for the same clock. */
function clockOf(zone: string, now: number): string {
  const samples: number[] = [];
  for (let month = 0; month <= 12; month++) samples.push(offsetAt(zone, now + month * 30.5 * 86_400_000));
  return samples.join(",");
}

/** One representative per clock (the most preferred, else the first by name), most preferred first. */
function distinctClocks(zones: readonly string[], now: number): string[] {
  const groups = new Map<string, string>();
  for (const zone of [...zones].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))) {
    const key = clockOf(zone, now);
    if (!groups.has(key)) groups.set(key, zone);
  }
  return [...groups.values()];
}

const OFFSET = /^(?:utc|gmt)?\s*([+\-\u2212])\s*(\d{1,2})(?::?(\d{2}))?$/i;

/** `UTC+2` → 120, `GMT-03:30` → -210 (minutes east of UTC); null when it is not an offset. */
export function parseOffset(input: string): number | null {
  const m = OFFSET.exec(input.trim());
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (Number(m[2]) > 14 || Number(m[3] ?? 0) > 59) return null;
  return m[1] === "+" ? minutes : -minutes;
}

/**
 * The zones for a place or offset: one zone for a name that has one clock; the likely zones of a name with
 * several, or of an offset (the preferred zones on that offset now, then the fixed `Etc/GMT` zone, which never
 * changes for summer time); unknown otherwise. A city is read by its IANA name, the big cities listed here, and
 * the names of `local` (languages' exemplar cities, all of them: a name two places share is offered as both); a
 * country only when no city has the name. IANA names themselves are the caller's (`parseZone`).
 */
export function zonesFor(input: string, now: number, local: readonly CityNames[] = []): PlaceAnswer {
  const offset = parseOffset(input);
  if (offset !== null) {
    const on = distinctClocks(
      PREFERRED.filter((z) => offsetAt(z, now) === offset * 60_000),
      now,
    ).slice(0, MAX_CHOICES - 1);
    // Etc/GMT-2 is UTC+2: the POSIX sign is inverted. Only whole hours exist there.
    if (offset % 60 === 0 && Math.abs(offset) <= 12 * 60) on.push(offset === 0 ? "UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset) / 60}`);
    return on.length === 0 ? { kind: "unknown" } : { kind: "choices", zones: on, offset: true };
  }
  const key = normalisePlace(input);
  if (key === "") return { kind: "unknown" };
  const named = [...(cities().get(key) ?? [])];
  // A zone this runtime does not know (CLDR's data may be newer than its ICU) is no answer.
  for (const names of local) for (const zone of names.get(key) ?? []) if (!named.includes(zone) && parseZone(zone).ok) named.push(zone);
  const zones = named.length > 0 ? named : countries().has(key) ? countryZones(countries().get(key)!) : [];
  if (zones.length === 0) return { kind: "unknown" };
  const clocks = distinctClocks(zones, now);
  return clocks.length === 1 ? { kind: "zone", zone: clocks[0]! } : { kind: "choices", zones: clocks.slice(0, MAX_CHOICES), offset: false };
}

/**
 * What `/timezone <input>` and the page's Change zone take (docs/telegram.md): an IANA (or Windows) name as it is; a city
 * or country that names one zone; a name with several, or an offset, as the choices of `zonesFor`. A name that is
 * both an old IANA link and a place (`Japan`, `Singapore`) is the place's own zone; one that is a link and names
 * no place (`UTC`) is the link. `language` is the sender's (Telegram's `language_code`, `de-AT`), if known.
 */
export async function placeZone(input: string, now: number, language?: string | null): Promise<PlaceAnswer> {
  const zone = parseZone(input);
  if (zone.ok && zone.value.includes("/")) return { kind: "zone", zone: zone.value };
  // A link that English names no place by (`UTC`) is the link: no other language's names are loaded for it.
  const place = await localZonesFor(input, now, langOf(language ?? undefined), !zone.ok);
  if (zone.ok && place.kind !== "zone") return { kind: "zone", zone: zone.value };
  return place;
}

/**
 * `zonesFor` with the languages' city names: English's and the sender's language's first (a German's `Wien`
 * loads German's names only); when those name nothing, every language the name's script may be written in
 * (`Москва` Russian's; `Lissabon` all of the seven written in Latin letters), so that a name in a language
 * other than the sender's is found too (unless `widen` is false).
 */
async function localZonesFor(input: string, now: number, lang: Lang | null, widen: boolean): Promise<PlaceAnswer> {
  if (parseOffset(input) !== null || normalisePlace(input) === "") return zonesFor(input, now);
  const first: Lang[] = lang && lang !== "en" ? ["en", lang] : ["en"];
  const found = zonesFor(input, now, await Promise.all(first.map(citiesOf)));
  const rest = widen ? langsFor(input, null).filter((l) => !first.includes(l)) : [];
  if (found.kind !== "unknown" || rest.length === 0) return found;
  return zonesFor(input, now, await Promise.all([...first, ...rest].map(citiesOf)));
}

/** A choice as it is offered: `America/New_York (UTC-05:00)`; for an offset's choices the name alone, and `Etc/GMT-2` as what it is. */
export function zoneChoiceLabel(zone: string, now: number, offset: boolean, fixed = (at: string) => `${at}, no summer time`): string {
  if (zone.startsWith("Etc/GMT") || zone === "UTC") return fixed(formatOffset(zone, now));
  return offset ? zone : `${zone} (${formatOffset(zone, now)})`;
}
