/**
 * @module What a reminder's words say besides its time, at the end of its text (docs/telegram.md#nag-until-done,
 * docs/telegram.md#notices-ahead), in each of the bot's eight languages: `… until done` (every 10 minutes, 6 more times)
 * or `… every 5 minutes until done`, and `…, 1 day and 1 hour before`. Read off the text's end, so that the words
 * inside a reminder's text stay its text. Pure.
 */

/** What the end of a reminder's text said: the text without it, a repetition (every seconds), notices (ISO durations). */
export type ReminderWords = { text: string; repeat?: { every: string; times: number }; before?: string[] };

/** Each language's words: "until done", "every N minutes", the units of "N units before", "and", and "before". */
type Words = { done: string; every: string; minutes: string; units: Record<"M" | "H" | "D" | "W", string>; and: string; before: RegExp };

const NUMBER = String.raw`(\d{1,3}|an?|one|ein(?:e[nm]?)?|une?|una?|uma?|een|один|одну)`;

const WORDS: Words[] = [
  {
    done: String.raw`(?:until|till)\s+done`,
    every: "every",
    minutes: "min(?:ute)?s?",
    units: { M: "min(?:ute)?s?", H: "hours?|h", D: "days?", W: "weeks?" },
    and: "and",
    before: /^(.*?)\s*,?\s+(.+?)\s+(?:before|ahead)$/is,
  },
  {
    done: String.raw`bis\s+erledigt`,
    every: "alle",
    minutes: "min(?:uten?)?",
    units: { M: "min(?:uten?)?", H: String.raw`stunden?|std\.?`, D: "tage?n?", W: "wochen?" },
    and: "und",
    before: /^(.*?)\s*,?\s+(.+?)\s+(?:vorher|davor)$/is,
  },
  {
    done: String.raw`jusqu'?(?:à|a)\s+(?:ce\s+que\s+ce\s+soit\s+)?fait`,
    every: String.raw`toutes\s+les`,
    minutes: "min(?:utes?)?",
    units: { M: "min(?:utes?)?", H: "heures?|h", D: "jours?", W: "semaines?" },
    and: "et",
    before: /^(.*?)\s*,?\s+(.+?)\s+avant$/is,
  },
  {
    done: String.raw`hasta\s+(?:que\s+esté\s+)?hecho`,
    every: "cada",
    minutes: "min(?:utos?)?",
    units: { M: "min(?:utos?)?", H: "horas?|h", D: "días?|dias?", W: "semanas?" },
    and: "y",
    before: /^(.*?)\s*,?\s+(.+?)\s+antes$/is,
  },
  {
    done: String.raw`até\s+(?:estar\s+)?feito`,
    every: String.raw`a\s+cada`,
    minutes: "min(?:utos?)?",
    units: { M: "min(?:utos?)?", H: "horas?|h", D: "dias?", W: "semanas?" },
    and: "e",
    before: /^(.*?)\s*,?\s+(.+?)\s+antes$/is,
  },
  {
    done: String.raw`(?:finché\s+non\s+è|fino\s+a)\s+fatto`,
    every: "ogni",
    minutes: "min(?:uti)?",
    units: { M: "min(?:uti|uto)?", H: "ore|ora|h", D: "giorni|giorno", W: "settimane?|settimana" },
    and: "e",
    before: /^(.*?)\s*,?\s+(.+?)\s+prima$/is,
  },
  {
    done: String.raw`tot\s+(?:het\s+)?gedaan(?:\s+is)?`,
    every: "elke",
    minutes: "min(?:uten|uut)?",
    units: { M: "min(?:uten|uut)?", H: "uur|u", D: "dagen|dag", W: "weken|week" },
    and: "en",
    before: /^(.*?)\s*,?\s+(.+?)\s+(?:van\s+tevoren|vooraf|ervoor)$/is,
  },
  {
    done: String.raw`пока\s+не\s+сделаю|пока\s+не\s+сделано|до\s+выполнения`,
    every: "каждые|каждую",
    minutes: "мин(?:ут[ау]?)?",
    units: { M: "мин(?:ут[ау]?)?", H: "час(?:а|ов)?", D: "д(?:ень|ня|ней)", W: "недел[июь]" },
    and: "и",
    // Russian says it first: "за 1 день и 1 час".
    before: /^(.*?)\s*,?\s+за\s+(.+?)$/is,
  },
];

/** What `until done` means when it says no more: every 10 minutes, 6 more times. */
const UNTIL_DONE = { minutes: 10, times: 6 };

const SECONDS: Record<"M" | "H" | "D" | "W", number> = { M: 60, H: 3600, D: 86_400, W: 604_800 };

/** A count as written: digits, or a word for one. */
const countOf = (word: string): number => (/^\d+$/.test(word) ? Number(word) : 1);

/** `1 day and 1 hour` in one language's words as ISO durations (`P1D`, `PT1H`), or null when it is not only that. */
function durations(text: string, w: Words): string[] | null {
  const unit = Object.entries(w.units)
    .map(([k, re]) => `(?<${k}>${re})`)
    .join("|");
  const one = new RegExp(`^${NUMBER}\\s*(?:${unit})$`, "iu");
  const parts = text.split(new RegExp(`\\s*,\\s*|\\s+(?:${w.and})\\s+`, "iu")).filter((p) => p.trim() !== "");
  if (parts.length === 0 || parts.length > 3) return null;
  const out: string[] = [];
  for (const part of parts) {
    const m = one.exec(part.trim());
    if (!m?.groups) return null;
    const key = (Object.keys(SECONDS) as (keyof typeof SECONDS)[]).find((k) => m.groups?.[k] !== undefined)!;
    const seconds = countOf(m[1]!.toLowerCase()) * SECONDS[key];
    out.push(seconds % 86_400 === 0 ? `P${seconds / 86_400}D` : seconds % 3600 === 0 ? `PT${seconds / 3600}H` : `PT${seconds / 60}M`);
  }
  return out;
}

/**
 * `…, 1 day and 1 hour before` at the end of `text` in one language's words: the durations and the text before them,
 * the longest run of words before the closing word that reads as durations only (`call mum before dinner` is none).
 */
function beforeOf(text: string, w: Words): { text: string; before: string[] } | null {
  const m = w.before.exec(text);
  if (!m) return null;
  const words = `${m[1]} ${m[2]}`.trim().split(/\s+/);
  for (let k = Math.min(8, words.length - 1); k >= 1; k--) {
    const read = durations(words.slice(-k).join(" "), w);
    const rest = words.slice(0, -k).join(" ").replace(/\s*,$/, "").trim();
    if (read !== null && rest !== "") return { text: rest, before: read };
  }
  return null;
}

/** The end of a reminder's text read: `until done` (with its `every N minutes`), then `… before`; the text without them. */
export function reminderWords(input: string): ReminderWords {
  let text = input.trim();
  const out: ReminderWords = { text };
  for (let pass = 0; pass < 2; pass++) {
    for (const w of WORDS) {
      if (out.repeat === undefined) {
        const done = new RegExp(`^(.*?)\\s*,?\\s+(?:(?:${w.every})\\s+(\\d{1,4})\\s*(?:${w.minutes})\\s+)?(?:${w.done})$`, "isu").exec(text);
        if (done && done[1]!.trim() !== "") {
          const minutes = done[2] === undefined ? UNTIL_DONE.minutes : Number(done[2]);
          out.repeat = { every: minutes % 60 === 0 ? `PT${minutes / 60}H` : `PT${minutes}M`, times: UNTIL_DONE.times };
          text = done[1]!.trim();
        }
      }
    }
    // Notices: the language whose words read the most of the end (Portuguese `1 dia e 1 hora` is not Spanish's `1 hora`).
    if (out.before === undefined) {
      const found = WORDS.map((w) => beforeOf(text, w))
        .filter((f): f is NonNullable<typeof f> => f !== null)
        .sort((a, b) => a.text.length - b.text.length)[0];
      if (found !== undefined) {
        out.before = found.before;
        text = found.text;
      }
    }
  }
  out.text = text;
  return out;
}
