/**
 * @module An end said alone, for a job that keeps its schedule (docs/telegram.md `/edit <id> until March`,
 * `/edit <id> 10 times`, `/edit <id> no end`), in the eight languages: an `until` date (a date alone is the end of
 * that day, a month alone ends when it begins), a number of runs, or no end at all. The end is a local date-time in
 * the chat's zone (`time/until.ts`). Pure.
 */
import { ENDLESS, type Ends } from "../time/schedule";
import { dateReader } from "./date-reader";
import { untilOfSaid } from "./form";
import { type Lang, langOf, langsFor, tableOf } from "./lang";
import { readEndsPlan } from "./phrase";

/** "No end" in each language. */
const NO_END: Readonly<Record<Lang, readonly string[]>> = {
  en: ["no end", "without end", "forever", "never ends", "no end date"],
  de: ["kein Ende", "ohne Ende", "für immer", "endlos"],
  fr: ["sans fin", "pour toujours", "sans date de fin"],
  es: ["sin fin", "para siempre", "sin fecha de fin"],
  pt: ["sem fim", "para sempre", "sem data de fim"],
  it: ["senza fine", "per sempre", "senza data di fine"],
  nl: ["geen einde", "zonder einde", "voor altijd"],
  ru: ["без конца", "навсегда", "бессрочно", "без окончания"],
};

/** Lower case, without accents or final stops, spaces as one: how "no end" is compared. */
const folded = (text: string): string =>
  text
    .trim()
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[.!]+$/u, "")
    .replace(/\s+/gu, " ");

let noEndFolded: ReadonlySet<string> | undefined;

/**
 * The end that the whole of `text` says (`until 31 march`, `bis März`, `10 times`, `10 раз`, `no end`), or null
 * when it says anything else: `{ until, runsLeft }` with what was said, both null for no end.
 */
export async function readEnds(text: string, o: { zone: string; now: number; language?: string | null }): Promise<Ends | null> {
  noEndFolded ??= new Set(Object.values(NO_END).flatMap((list) => list.map(folded)));
  if (noEndFolded.has(folded(text))) return ENDLESS;
  for (const lang of langsFor(text, langOf(o.language ?? undefined))) {
    const table = await tableOf(lang);
    const plan = await readEndsPlan(text.trim(), table, dateReader(text.trim(), table, o));
    if (plan === null) continue;
    return { ...(plan.until ? { until: untilOfSaid(plan.until) } : {}), ...(plan.runs === null ? {} : { runsLeft: plan.runs }) };
  }
  return null;
}
