/**
 * @module Descriptions of schedules (docs/time.md#descriptions): what the bot, the page and the API print for a
 * schedule is a phrase the one reader (`read.ts`) reads back as the same schedule, in any of its eight languages:
 * `every weekday at 08:30`, `alle 2 Wochen am Dienstag um 10:00`, `каждый день в 09:00 до 2027-03-31`. What a cron
 * or rule says comes from `spoken.ts`, its words from the language's module in `speech/` (English's is part of
 * this module, for the job lines, which are written without waiting; each other one is loaded on first use). A
 * form no phrase says is shown as it was written (a cron, a rule after its DTSTART), which the reader reads too;
 * one time is its wall time. A caller adds the zone in parentheses, which the reader takes back as that zone.
 */
import { loadOnce } from "../lazy";
import { formatLocalDateTime, formatWeekdayTime } from "../time/format";
import { formatStart, parseRule } from "../time/rule";
import { ruleEnds } from "../time/rules";
import type { JobEnds, Schedule } from "../time/schedule";
import { type Lang, langOf } from "./lang";
import { speech as english } from "./speech/en";
import type { Speech } from "./speech/types";
import { endsSaid, saidOf } from "./spoken";

/** Each language's speech; English is always here. */
export const speechOf = loadOnce<Lang, Speech>({
  en: async () => english,
  de: async () => (await import("./speech/de")).speech,
  fr: async () => (await import("./speech/fr")).speech,
  es: async () => (await import("./speech/es")).speech,
  pt: async () => (await import("./speech/pt")).speech,
  it: async () => (await import("./speech/it")).speech,
  nl: async () => (await import("./speech/nl")).speech,
  ru: async () => (await import("./speech/ru")).speech,
});

/** A cron the reader reads without quotes (`read.ts`): digits, `* , - / ? # L W`, or a macro of letters. */
const BARE_CRON = /^(?:@[A-Za-z]+|[\d*,/?#LW-]+(?: [\d*,/?#LW-]+){4})$/;

/** Where and when a schedule is described: the chat's zone and now. */
export type SayContext = { zone: string; now: number };

/** No end. */
const ENDLESS: JobEnds = { until: null, runsLeft: null };

/** A description: its text, and whether it shows the form as written (no phrase says it) rather than words. */
export type Description = { text: string; written: boolean };

/**
 * `schedule` with `ends` in words of `speech`; a form no phrase says as written (the cron, `DTSTART:… RRULE:…`);
 * one time as its wall time (`Thu 13 May 10:00`, its year when not this one).
 */
export function describeWith(speech: Speech, given: Schedule, givenEnds: JobEnds, { zone, now }: SayContext): Description {
  const { schedule, ends } = withoutOwnEnds(given, givenEnds, zone, now);
  if (schedule.type === "at") {
    return { text: speech.lang === "en" ? formatWeekdayTime(schedule.at, zone, now) : formatLocalDateTime(schedule.at, zone), written: false };
  }
  const said = saidOf(schedule, ends, zone, now);
  const words = said && (speech.say(said) ?? english.say(said));
  if (words) return { text: words, written: false };
  const { until, runs } = endsSaid(ends);
  const end = speech.ends({ until, runs, start: null });
  // The reader reads a bare cron of digits and Cronos's letters; one with names (MON-FRI) is read quoted.
  const cron = schedule.type === "cron" && (BARE_CRON.test(schedule.cron.source) ? schedule.cron.source : `"${schedule.cron.source}"`);
  const rule = schedule.type === "rule" && `DTSTART:${formatStart(schedule.rule.start).replace(/[-:]/g, "")} RRULE:${schedule.rule.rule.source}`;
  return { text: `${cron || rule}${end && ` ${end}`}`, written: true };
}

/**
 * A rule's own COUNT and UNTIL as ends (`ruleEnds`, as a job is written), the earlier end and the fewer runs with
 * the ones given: the words say them as ends.
 */
function withoutOwnEnds(schedule: Schedule, ends: JobEnds, zone: string, now: number): { schedule: Schedule; ends: JobEnds } {
  if (schedule.type !== "rule" || (schedule.rule.rule.count === null && schedule.rule.rule.until === null)) return { schedule, ends };
  const own = ruleEnds(schedule.rule, zone, now);
  const rule = own.ok ? parseRule(own.value.rrule) : null;
  if (!own.ok || !rule?.ok) return { schedule, ends };
  const until = [ends.until, own.value.until].filter((u) => u !== null).sort()[0] ?? null;
  const runs = [ends.runsLeft, own.value.runsLeft].filter((n) => n !== null);
  return {
    schedule: { type: "rule", rule: { rule: rule.value, start: schedule.rule.start } },
    ends: { until, runsLeft: runs.length ? Math.min(...runs) : null },
  };
}

/** A description in English, at once (the job lines). */
export function describeInEnglish(schedule: Schedule, ends: JobEnds, at: SayContext): Description {
  return describeWith(english, schedule, ends, at);
}

/** A description in the language of a BCP 47 tag (English when the reader has no table for it). */
export async function describeIn(schedule: Schedule, ends: JobEnds, at: SayContext & { language?: string | null }): Promise<Description> {
  return describeWith(await speechOf(langOf(at.language ?? undefined) ?? "en"), schedule, ends, at);
}

/** The text of a description in the language of a BCP 47 tag. */
export async function describe(schedule: Schedule, ends: JobEnds = ENDLESS, at: SayContext & { language?: string | null }): Promise<string> {
  return (await describeIn(schedule, ends, at)).text;
}
