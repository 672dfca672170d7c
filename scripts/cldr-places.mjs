#!/usr/bin/env node
/**
 * Writes src/words/cities/<lang>.ts (issue 33 item 3): for each of the eight languages, the names CLDR gives the
 * zones' cities in that language (its "exemplar cities": `Wien`, `Москва`, `Nueva York`), each with the IANA zone
 * it names, for `/timezone` and `GET /admin/zones?place=` (src/words/places.ts loads a language's file on first use).
 *
 * From the package `cldr-dates-full` (`main/<locale>/timeZoneNames.json`, `zone.<Area>.<City>.exemplarCity`) of the
 * language's own locale and its regional ones (`pt` and `pt-PT`'s `Moscovo`, `es-419`, `fr-CA`; not the other
 * scripts, `en-Dsrt`), with CLDR's zone ids (`Asia/Calcutta`, `Europe/Kiev`) as the IANA names they stand for
 * (`cldr-bcp47`'s `bcp47/timezone.json`: `Asia/Kolkata`, `Europe/Kyiv`). Left out: what the IANA names already
 * give (`Zürich` is Europe/Zurich's own `Zurich`), a name English's file has for the same zone, and `Etc/`.
 *
 * `node scripts/cldr-places.mjs` writes the files (after upgrading cldr-dates-full);
 * test/unit/words-cities.test.ts fails when they differ from what this makes.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const CITIES_DIR = path.join(root, "src", "words", "cities");
const DATES = path.join(root, "node_modules", "cldr-dates-full");

/** The bot's languages (src/words/lang), English first: the others leave out what English's file has. */
export const LANGS = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"];

/**
 * As src/words/places.ts's `normalisePlace` compares names: `São_Paulo` → `sao paulo`.
 * @param {string} text
 */
const normalise = (text) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[\u2018\u2019`]/g, "'")
    .replace(/[_.,-]/g, " ")
    .replace(/\s+/g, " ")
    .trim();

/** @param {string} file @returns {any} */
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));

/**
 * CLDR's zone id → the IANA name (`Asia/Calcutta` → `Asia/Kolkata`): `_iana` where it differs, else the first alias.
 * @returns {Map<string, string>}
 */
function ianaNames() {
  const zones = readJson(path.join(root, "node_modules", "cldr-bcp47", "bcp47", "timezone.json")).keyword.u.tz;
  const names = new Map();
  for (const entry of Object.values(zones)) {
    if (typeof entry !== "object" || typeof entry._alias !== "string") continue;
    const aliases = entry._alias.split(" ");
    for (const alias of aliases) names.set(alias, entry._iana ?? aliases[0]);
  }
  return names;
}

/**
 * A locale's exemplar cities: [CLDR zone id, name], in the file's order.
 * @param {string} locale
 */
function exemplarCities(locale) {
  const zone = readJson(path.join(DATES, "main", locale, "timeZoneNames.json")).main[locale].dates.timeZoneNames.zone;
  /** @type {[string, string][]} */
  const found = [];
  /** @param {Record<string, any>} node @param {string[]} ids */
  const walk = (node, ids) => {
    for (const [key, value] of Object.entries(node)) {
      if (value._type === "zone") {
        if (typeof value.exemplarCity === "string") found.push([[...ids, key].join("/"), value.exemplarCity]);
      } else if (typeof value === "object") walk(value, [...ids, key]);
    }
  };
  walk(zone, []);
  return found;
}

/**
 * The language's locale, then its regional ones by name (`pt`, `pt-AO`, …, `pt-PT`).
 * @param {string} lang
 */
function localesOf(lang) {
  const regional = new RegExp(`^${lang}-(?:[A-Z]{2}|\\d{3})$`);
  return [
    lang,
    ...readdirSync(path.join(DATES, "main"))
      .filter((l) => regional.test(l))
      .sort(),
  ];
}

/**
 * A zone's last segment as its IANA name reads it (`America/Argentina/Rio_Gallegos` → `rio gallegos`).
 * @param {string} zone
 */
const ownName = (zone) => normalise(zone.split("/").pop() ?? "");

/**
 * Each language's zones and their names: zone → names as CLDR writes them, one per normalised spelling, in
 * the order of the locales; only names that the zone's IANA name (or, for another language, English's file)
 * does not give.
 */
export function cldrCities() {
  const iana = ianaNames();
  const english = new Set();
  const all = new Map();
  for (const lang of LANGS) {
    const zones = new Map();
    const seen = new Set();
    for (const locale of localesOf(lang)) {
      for (const [id, name] of exemplarCities(locale)) {
        if (id.startsWith("Etc/")) continue;
        const zone = iana.get(id);
        if (!zone) throw new Error(`${locale}: CLDR's zone ${id} has no IANA name in cldr-bcp47`);
        const key = `${zone} ${normalise(name)}`;
        if (normalise(name) === ownName(id) || normalise(name) === ownName(zone) || seen.has(key) || english.has(key)) continue;
        seen.add(key);
        zones.set(zone, [...(zones.get(zone) ?? []), name]);
      }
    }
    if (lang === "en") for (const key of seen) english.add(key);
    all.set(lang, zones);
  }
  return all;
}

/** @type {Record<string, string>} */
const NAMES = { en: "English", de: "German", fr: "French", es: "Spanish", pt: "Portuguese", it: "Italian", nl: "Dutch", ru: "Russian" };

/** The files of src/words/cities/ as this makes them: name → text. */
export function buildCityFiles() {
  const version = readJson(path.join(DATES, "package.json")).version;
  const files = new Map();
  for (const [lang, zones] of cldrCities()) {
    const rows = [...zones]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([zone, names]) => `  ${JSON.stringify([zone, ...names]).replaceAll('","', '", "')},\n`)
      .join("");
    const besides = lang === "en" ? "" : ", nor English's file";
    files.set(
      `${lang}.ts`,
      `/**\n * The zones' cities as CLDR ${version} names them in ${NAMES[lang]} (cldr-dates-full's exemplar cities of ${lang} and its\n` +
        ` * regional locales), where the zone's IANA name does not give the name${besides}. Written by\n` +
        " * scripts/cldr-places.mjs: do not edit.\n */\n" +
        'import type { ExemplarCities } from "./types";\n\n' +
        `export const cities: ExemplarCities = [\n${rows}];\n`,
    );
  }
  return files;
}

/** The files now in src/words/cities/. */
export function committedCityFiles() {
  const files = new Map();
  // A language's file each (`de.ts`); `types.ts`, their shape, is written by hand.
  for (const name of readdirSync(CITIES_DIR).filter((n) => /^[a-z]{2}\.ts$/.test(n))) files.set(name, readFileSync(path.join(CITIES_DIR, name), "utf8"));
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = buildCityFiles();
  mkdirSync(CITIES_DIR, { recursive: true });
  for (const [name, text] of files) writeFileSync(path.join(CITIES_DIR, name), text);
  console.log(`wrote ${files.size} files to ${path.relative(root, CITIES_DIR)}`);
}
