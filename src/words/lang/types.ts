/**
 * @module The shape of a language's phrase table (issue 24): the words `Intl` cannot give (every, other, last,
 * times, until, twice, except …) that the phrase reader (`words/phrase/`) looks for, the sentence it answers
 * when it read nothing, and examples that read. Weekday and month names are not here: they come from `Intl`
 * (`words/phrase/names.ts`). Entries are compared folded (lower case, no accents); an entry may span words (`tous
 * les`), and one ending in `*` stands for every word that starts so (`кажд*`: каждый, каждую, каждые).
 */

/** A language the phrase reader has a table for (a BCP 47 primary language subtag). */
export type Lang = "en" | "de" | "fr" | "es" | "pt" | "it" | "nl" | "ru";

export type Unit = "minute" | "hour" | "day" | "week" | "month" | "year";

export type Words = readonly string[];

/** Months counted by an adverb of their own: every 2 (bimestral), 3 (quarterly) or 6 (semestriel, halbjährlich). */
export const MULTIPLES = { "two-months": 2, quarter: 3, "half-year": 6 } as const;
export type Multiple = keyof typeof MULTIPLES;

/** A part of the day, by name: each table says which of its words name which part (`DAY_PARTS` gives the hours). */
export type DayPart = "morning" | "afternoon" | "evening" | "night";

export type PhraseTable = {
  lang: Lang;
  /** "every", "each" (before a unit, a day, a number): every, jeden, tous les, cada, кажд*. */
  every: Words;
  /** "every other": between "every" and a day or unit, every second one (other, zweiten, втор*). */
  other: Words;
  /** "Every other" said around a day rather than before it: un vendredi sur deux, vrijdag om de week. */
  alternate: { before: Words; after: Words };
  /** Numbers written out, for intervals and counts (two → 2). */
  numbers: Readonly<Record<string, number>>;
  /** Each unit's words, singular and plural. */
  units: Readonly<Record<Unit, Words>>;
  /** A unit's repetition in one word: hourly, daily, weekly, monthly, yearly; every 2, 3 and 6 months (bimestral, quarterly, semestriel). */
  adverbs: Readonly<Partial<Record<Unit | Multiple, Words>>>;
  /** Spans with a name of their own, as an amount of a unit: half an hour (30 minutes), a quarter (3 months), a fortnight. */
  spans: Readonly<Record<string, readonly [number, Unit]>>;
  /** "And a half" after a number or a unit (an hour and a half, cada hora y media); the number words hold 1.5 itself (anderthalb, полтора). */
  half: Words;
  /** Monday to Friday, as one word or phrase (weekdays, werktags, en semaine, по будням). */
  workdays: Words;
  /** One working day, for positions (the last working day). */
  workday: Words;
  /** Saturday and Sunday. */
  weekend: Words;
  /** Positions in a month: 1–5, -1 for the last and -2 for the one before it (first → 1, last → -1, second-to-last → -2). */
  ordinals: Readonly<Record<string, number>>;
  /** A day of the month as written (`15th`, `15.`, `le 15`): a pattern over folded text (lower case, no accents) whose first group that matched is the day. */
  monthDay: string;
  /** Before a clock time: at, um, à, a las, в. */
  at: Words;
  /** After a clock time: Uhr, h, heures, uur. */
  oclock: Words;
  am: Words;
  pm: Words;
  noon: Words;
  midnight: Words;
  /** Before a day, a position or a day of the month, skipped: on, the, am, le, el, op, в. */
  lead: Words;
  /** Of (the month): of, im, des, du, de, di, van. */
  of: Words;
  and: Words;
  /** Day ranges: from … to (von … bis, du … au). */
  rangeFrom: Words;
  rangeTo: Words;
  /** Before a window of hours whose ends are joined by `and` (between 9 and 17); `rangeFrom` … `rangeTo` says one too (from 9 to 17). */
  between: Words;
  /** Parts of the day (every morning, on sunday evening, in the evening, jeden Abend, каждое утро), each word's part. */
  dayParts: Readonly<Record<string, DayPart>>;
  /** Parts of the day whose word alone means something else (German "Morgen", Spanish "mañana": tomorrow): read only after "every". */
  dayPartsAfterEvery: Readonly<Record<string, DayPart>>;
  except: Words;
  until: Words;
  starting: Words;
  /** Words that may stand between "until"/"starting" and a date, which chrono-node does not read: the, next. */
  dateLead: Words;
  /** Before a number of runs or a span (for 10 times, for 5 days). */
  for: Words;
  /** After a number: times (10 times, twice a day). */
  times: Words;
  /** Counts in one word: once, twice, zweimal, дважды. */
  multiples: Readonly<Record<string, number>>;
  /** Between a count and its unit: a, per, am, par, al, в (twice a day). */
  per: Words;
  /** A weekday said as a habit: word endings that make it plural (mondays, montags) and words before it (los lunes). */
  habit: { endings: Words; before: Words };
  /**
   * The sentences of a refusal: `quoted` as typed, then two examples that read now. Nothing read as a schedule or as a
   * time; a number too large for what it counts; a number that may be a time of day or how often (`16h`); a part said
   * a second time, or a second schedule (`from 1 jan from 1 jan`, `… and wednesday at 10`).
   */
  unread: Readonly<Record<"schedule" | "time" | "tooLarge" | "ambiguous" | "twice", (quoted: string, a: string, b: string) => string>>;
  /**
   * The sentences of a time or schedule that was read but will not do, each with two examples that read now (`a`,
   * `b`): nothing said; a date that does not exist (`31 February`); a time in the past (`at` the time, `zone`, `ago`
   * how long ago, from `ago`); more than 5 years ahead; seconds; less than a minute ahead; one time where `/every`
   * wants a repetition.
   */
  refused: {
    empty: (a: string, b: string) => string;
    notReal: (quoted: string, a: string, b: string) => string;
    past: (quoted: string, at: string, zone: string, ago: string, a: string, b: string) => string;
    tooFar: (quoted: string, at: string, zone: string, a: string, b: string) => string;
    seconds: (quoted: string, a: string, b: string) => string;
    tooSoon: (quoted: string, a: string, b: string) => string;
    once: (quoted: string, a: string, b: string) => string;
  };
  /** How long ago, rounded down, as the language says it (`3 hours ago`, `vor 2 Tagen`, `3 часа назад`). */
  ago: (count: number, unit: "minute" | "hour" | "day") => string;
  /** The two readings of an hour that may be either (`16h`, `9h30`): every day at that time, and every that long. */
  readings: (hour: number, minute: number) => readonly [string, string];
  /** Examples that this language's readers read now: for `/every`, for `/remind`, and for a field that takes both. */
  examples: { every: readonly [string, string]; remind: readonly [string, string]; any: readonly [string, string] };
  /** A stand-in text for the examples when the user's own is missing: a recurring one, a one-off one. */
  texts: { every: string; remind: string };
};
