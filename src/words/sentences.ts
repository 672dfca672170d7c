/**
 * @module What the schedule reader (`read.ts`) says when it did not understand (issues 14, 24): one
 * sentence that quotes what was typed (at most 40 characters), says what was wrong and ends with two examples
 * that read now, never a past date (relative ones, or a date computed from now). A phrase that could not be read
 * is answered in the user's language when a phrase table has it; the other sentences are English. For a
 * command, the examples are the command's own with the user's text (`/every day at 8:00 stretch`).
 */
import { shown } from "../contracts/ids";
import { formatLocalDateTime, formatLocalDay, formatWeekdayTime } from "../time/format";
import { langOf, type PhraseTable, tableOf } from "./lang";
import type { ScheduleProblem } from "./problem";

/**
 * Who asks: the zone and now (for dated examples), the language, the command and the user's text if any. With
 * `prefix` (`/edit k7m2q`, a job's new time), the examples are that and a schedule alone, of the command's kind.
 */
export type ProblemContext = { zone: string; now: number; language?: string | null; command?: "/remind" | "/every" | null; text?: string; prefix?: string };

const DAY_MS = 86_400_000;
const DEFAULT_RECURRING = "summarise the news";

/** The user's text for an example, or a stand-in when there is none (or it is too long to repeat). */
export function textFor(text: string, fallback: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one !== "" && one.length <= 40 ? one : fallback;
}

/** The sentence for `problem`. */
export async function scheduleProblemText(problem: ScheduleProblem, ctx: ProblemContext): Promise<string> {
  const { zone, now } = ctx;
  const command = ctx.command ?? null;
  const user = ctx.text ?? "";
  const q = "phrase" in problem ? shown(problem.phrase) : "";
  // An example as the command takes it: the command, the schedule, the user's text (or a stand-in).
  const prefix = ctx.prefix ?? null;
  const as = (schedule: string, fallback: string) =>
    prefix ? `${prefix} ${schedule}` : command ? `${command} ${schedule} ${textFor(user, fallback)}` : schedule;
  const recurring = (schedule: string) => as(command === "/every" ? schedule : `every ${schedule}`, DEFAULT_RECURRING);
  const tryThese = (a: string, b: string) => `Try ${a} or ${b}.`;
  // The sentences of a time or schedule read that will not do, in the language, with its examples and stand-in texts.
  const lang = langOf(ctx.language ?? undefined) ?? "en";
  const said = async () => {
    const t = await tableOf(lang);
    const inLang = (schedule: string, text: string) => as(schedule, text);
    const onceIn = (schedule: string) => inLang(schedule, t.texts.remind);
    // A repetition's example: `/every`'s own, else the one that says it repeats (`every day at 8:00`).
    const repeating = inLang(command === "/every" ? t.examples.every[0] : t.examples.any[1], t.texts.every);
    // For a one-off that would not do: tomorrow at 9 (its date, never a past one) or in two hours.
    const tryOnce: [string, string] = [onceIn(`${formatLocalDay(now + DAY_MS, zone)} 09:00`), onceIn("2h")];
    return { t, onceIn, repeating, tryOnce };
  };
  switch (problem.kind) {
    case "unreadable":
    case "conflict":
    case "too-large":
    case "ambiguous":
    case "twice": {
      const t = await tableOf(langOf(ctx.language ?? undefined) ?? "en");
      const textOf = (kind: "every" | "remind" | "any") => textFor(user, t.texts[kind === "remind" ? "remind" : "every"]);
      const said = (schedule: string, kind: "every" | "remind" | "any") =>
        prefix ? `${prefix} ${schedule}` : command ? `${command} ${schedule} ${textOf(kind)}` : schedule;
      const ex = (kind: "every" | "remind" | "any", i: 0 | 1) => (prefix || command ? said(t.examples[kind][i], kind) : t.examples.any[i]);
      const kind = command === "/every" ? "every" : command === "/remind" ? "remind" : "any";
      if (problem.kind === "too-large") return t.unread.tooLarge(q, ex(kind === "remind" ? "any" : kind, 0), ex(kind === "remind" ? "any" : kind, 1));
      if (problem.kind === "twice") return t.unread.twice(q, ex(kind, 0), ex(kind, 1));
      if (problem.kind === "ambiguous") {
        // The two readings of the number said: every day at that time, and every that long.
        const [, h, m] = /(\d{1,2})\D*(\d{2})?/u.exec(problem.phrase) ?? [];
        const [a, b] = t.readings(Number(h ?? 0), Number(m ?? 0));
        return t.unread.ambiguous(q, said(a, "every"), said(b, "every"));
      }
      if (command === "/remind" && problem.kind === "unreadable" && !problem.recurring) return t.unread.time(q, ex("remind", 0), ex("remind", 1));
      return t.unread.schedule(q, ex(kind, 0), ex(kind, 1));
    }
    case "empty": {
      const { t, onceIn, repeating } = await said();
      return t.refused.empty(onceIn(t.examples.remind[0]), repeating);
    }
    case "not-real": {
      const { t, tryOnce } = await said();
      return t.refused.notReal(q, ...tryOnce);
    }
    case "past": {
      const { t, tryOnce } = await said();
      // English names the weekday; the others write the date in numbers, which every reader reads.
      const at = lang === "en" ? formatWeekdayTime(problem.instant, zone, now) : formatLocalDateTime(problem.instant, zone);
      return t.refused.past(q, at, zone, agoIn(t, now - problem.instant), ...tryOnce);
    }
    case "too-far": {
      const { t, tryOnce } = await said();
      return t.refused.tooFar(q, formatLocalDateTime(problem.instant, zone), zone, ...tryOnce);
    }
    case "seconds":
    case "too-soon": {
      const { t, onceIn } = await said();
      return t.refused[problem.kind === "seconds" ? "seconds" : "tooSoon"](q, onceIn("2m"), onceIn("2h"));
    }
    case "once": {
      const { t, repeating } = await said();
      return t.refused.once(q, `/remind ${q} ${textFor(user, t.texts.remind)}`, repeating);
    }
    case "rule":
      return problem.sentence;
    case "cron":
      return `I couldn't use "${q}" as a schedule: ${problem.sentence} ${tryThese(as(`"0 8 * * 1-5"`, DEFAULT_RECURRING), recurring("day at 8:00"))}`;
    case "minutes": {
      const [first] = problem.times;
      const hm = (h: number) => `${h}:${String(first!.minute).padStart(2, "0")}`;
      const two = recurring(`day at ${hm(first!.hour)} and ${hm((first!.hour + 9) % 24)}`);
      return `"${q}" names times with different minutes, which one schedule cannot hold. ${tryThese(two, recurring(`day at ${hm(first!.hour)}`))}`;
    }
    case "count":
      if (problem.unit === "week")
        return `"${q}" says ${problem.count} times a week; name ${problem.count} days. ${tryThese(
          recurring("twice a week on monday and thursday at 9:00"),
          recurring("monday at 9:00"),
        )}`;
      if (problem.unit === "day")
        return `"${q}" says ${problem.count} times a day; name ${problem.count} times. ${tryThese(
          recurring("twice a day at 9 and 18"),
          recurring("day at 9:00"),
        )}`;
      return `"${q}" says ${problem.count} times a ${problem.unit}, which one schedule cannot keep. ${tryThese(
        recurring("twice a day at 9 and 18"),
        recurring("hour"),
      )}`;
    case "runs":
      return `"${q}" asks for ${problem.runs} runs; a job runs 1 to 1000 times. ${tryThese(recurring("day at 8:00 10 times"), recurring("day at 8:00"))}`;
    case "window": {
      const { from, to } = problem.window;
      const hm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}`;
      const [start, end] = [from.hour * 60 + from.minute, to.hour * 60 + to.minute];
      const minutes = recurring(`minute from ${hm(start)} to ${hm((end + 1439) % 1440)}`);
      return `"${q}" runs more times a day than one schedule can list up to ${hm(end)}. ${tryThese(minutes, recurring(`5 minutes from ${hm(start)} to ${hm(end)}`))}`;
    }
    case "until": {
      const until = recurring(`day at 8:00 until ${formatLocalDay(now + 30 * DAY_MS, zone)}`);
      const ends = formatLocalDateTime(problem.until, zone);
      return `"${q}" ends before its first run (${ends} in ${zone}). ${tryThese(until, recurring("day at 8:00 10 times"))}`;
    }
  }
}

/** `3 hours ago`: how long ago, rounded down (minutes under an hour, hours under two days, else days), in `t`'s language. */
function agoIn(t: PhraseTable, ms: number): string {
  if (ms < 3_600_000) return t.ago(Math.max(1, Math.floor(ms / 60_000)), "minute");
  if (ms < 172_800_000) return t.ago(Math.floor(ms / 3_600_000), "hour");
  return t.ago(Math.floor(ms / 86_400_000), "day");
}

/** A language's examples that work at any time (`morgen um 9:00`, `2h`; `jeden Tag um 8:00`) and its stand-in texts. */
export async function examplesIn(language: string | null | undefined): Promise<{
  remind: readonly [string, string];
  every: readonly [string, string];
  texts: { remind: string; every: string };
}> {
  const t = await tableOf(langOf(language ?? undefined) ?? "en");
  return { remind: [t.examples.remind[0]!, t.examples.remind[1]!], every: [t.examples.every[0]!, t.examples.every[1]!], texts: t.texts };
}
