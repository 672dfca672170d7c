/**
 * Benchmark: what a reply in one language loads (docs/telegram.md#language). The replies' tables, the words' phrase
 * tables, the places' names and chrono's locales are each loaded on first use; this runs a chat's replies in
 * English, then in German, and prints the lazily loaded chunks each path loaded (bench/run.mjs bundles it with
 * code splitting, marks every chunk, and names the modules in each) and how long each first use took. Printed,
 * never asserted.
 */
import { helpText } from "../src/telegram/commands";
import { cutLine, understoodLine } from "../src/telegram/words";
import { voiceOf } from "../src/texts";
import { describeIn, placeZone, readSchedule } from "../src/words";

const marked = globalThis as { __loaded?: string[] };
marked.__loaded ??= [];
const loaded = marked.__loaded;
const NOW = Date.UTC(2026, 11, 14, 10, 0);
const ZONE = "Europe/Berlin";

/** A chat's replies in `lang`: /help, a one-off and a repetition read and described, a place named. */
async function replies(lang: string, remind: string, every: string, place: string): Promise<void> {
  const v = await voiceOf(lang);
  helpText(v.t.help, NOW, ZONE, "echo");
  const once = await readSchedule(remind, { zone: ZONE, now: NOW, language: lang });
  if (!once.ok || once.value.schedule.type !== "at") throw new Error(`${remind} was not read`);
  cutLine(v, { phrase: once.value.phrase, tail: once.value.tail, text: once.value.rest });
  understoodLine(v, once.value.schedule.at, ZONE, NOW);
  const repeats = await readSchedule(every, { zone: ZONE, now: NOW, language: lang, recurring: true });
  if (!repeats.ok) throw new Error(`${every} was not read`);
  await describeIn(repeats.value.schedule, { until: null, runsLeft: null }, { zone: ZONE, now: NOW, language: lang });
  if ((await placeZone(place, NOW, lang)).kind !== "zone") throw new Error(`${place} was not found`);
}

const paths: [string, string, string, string][] = [
  ["en", "tomorrow at 9 call the dentist", "every weekday at 8:30 check my inbox", "Berlin"],
  ["de", "morgen um 9 Zahnarzt anrufen", "werktags um 8:30 Post lesen", "Wien"],
];
const out: { lang: string; chunks: string[]; ms: number[] }[] = [];
for (const [lang, remind, every, place] of paths) {
  const from = loaded.length;
  // The first use loads and compiles; chrono's patterns warm up over the next calls.
  const ms: number[] = [];
  for (let round = 0; round < 5; round++) {
    const t = performance.now();
    await replies(lang, remind, every, place);
    ms.push(performance.now() - t);
  }
  out.push({ lang, chunks: loaded.slice(from), ms });
}
console.log(JSON.stringify(out));
