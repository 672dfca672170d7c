/**
 * @module Forms a locale's chrono does not read, rewritten into ones it does before it parses, and its readings mapped
 * back onto the text as typed (`chrono.ts`): a reading that covers a rewritten span covers the span as typed, so the
 * phrase shown and the text after it are the user's own words. Each rule was found where chrono read nothing, or
 * read less than was said and so another time than meant (Russian `в 15 часов` as fifteen hours from now).
 */
/** A chrono locale's name (`chrono.ts`'s `Locale`, which imports this module). */
type Locale = string;

/** chrono's reference, as `chrono.ts` passes it: the instant and the zone's offset then, in minutes. */
type Reference = { instant: Date; timezone: number };

/** A rule: what to look for, and what chrono reads instead (given the match and the reference). */
type Rule = readonly [RegExp, (m: RegExpExecArray, ref: Reference) => string];

/** A text rewritten for chrono, with the spans replaced: [start, end) in the rewritten text and in the text as typed. */
export type Rewritten = { text: string; spans: { at: number; end: number; from: number; to: number }[] };

/** The local date `days` after the reference's, as `YYYY-MM-DD`. */
function dateAfter(ref: Reference, days: number): string {
  return new Date(ref.instant.getTime() + ref.timezone * 60_000 + days * 86_400_000).toISOString().slice(0, 10);
}

/** The same date as `3 december`, for Dutch chrono, which reads an ISO date but no time after it. */
function dutchDateAfter(ref: Reference, days: number): string {
  const d = new Date(`${dateAfter(ref, days)}T12:00:00Z`);
  return `${d.getUTCDate()} ${new Intl.DateTimeFormat("nl", { month: "long", timeZone: "UTC" }).format(d)}`;
}

/** The date of a weekday (0 Monday … 6 Sunday) in the week after the reference's, weeks from Monday. */
function nextWeeks(ref: Reference, weekday: number): string {
  const today = (new Date(ref.instant.getTime() + ref.timezone * 60_000).getUTCDay() + 6) % 7;
  return dateAfter(ref, 7 - today + weekday);
}

const FR_WEEKDAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"];

/** A letter may not follow or precede the words a rule looks for: `overmorgen` is not in `overmorgens`. */
const END = "(?![\\p{L}\\p{N}])";
const START = "(?<![\\p{L}\\p{N}])";
const rule = (source: string, to: Rule[1]): Rule => [new RegExp(`${START}${source}${END}`, "giu"), to];

/** Russian weekdays as said after "next" in the nominative (`следующая среда`), in the accusative chrono reads. */
const RU_WEEKDAY: Readonly<Record<string, string>> = {
  понедельник: "понедельник",
  вторник: "вторник",
  среда: "среду",
  четверг: "четверг",
  пятница: "пятницу",
  суббота: "субботу",
  воскресенье: "воскресенье",
};

/** An hour in words, 1 to 12, per language (the first words of each list), and its halves and quarters after it. */
const HOUR_WORDS: Partial<Record<Locale, { words: string; past: Readonly<Record<string, number>> }>> = {
  fr: { words: "une deux trois quatre cinq six sept huit neuf dix onze douze", past: { "et demie": 30, "et quart": 15 } },
  es: { words: "una dos tres cuatro cinco seis siete ocho nueve diez once doce", past: { "y media": 30, "y cuarto": 15 } },
  pt: { words: "uma duas três quatro cinco seis sete oito nove dez onze doze", past: { "e meia": 30, "e um quarto": 15, "e quinze": 15 } },
  it: { words: "una due tre quattro cinque sei sette otto nove dieci undici dodici", past: { "e mezza": 30, "e mezzo": 30, "e un quarto": 15 } },
  nl: { words: "een twee drie vier vijf zes zeven acht negen tien elf twaalf", past: {} },
  de: { words: "eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf", past: {} },
};

/** The hour of a word or digits, as `HOUR_WORDS` lists them (Portuguese `tres` without its accent too). */
function hourOf(locale: Locale, said: string): number {
  if (/^\d+$/.test(said)) return Number(said);
  const words = HOUR_WORDS[locale]!.words.split(" ");
  const word = said.toLowerCase();
  return words.indexOf(locale === "pt" && word === "tres" ? "três" : word) + 1;
}

/**
 * An hour in words after the language's "at" (`às oito`, `a las tres`: chrono reads digits only) or, in French,
 * before `heures`, with a half or quarter after it (`às 3 e meia`), as digits: `às 8`, `às 3:30`.
 */
function hourRule(locale: Locale, at: string, after = ""): Rule {
  const { words, past } = HOUR_WORDS[locale]!;
  const alternatives = `${words.replaceAll(" ", "|")}${locale === "pt" ? "|tres" : ""}`;
  const said = `(\\d{1,2}|${alternatives})${after}`;
  const halves = Object.keys(past).join("|");
  return rule(`${at}${said}${halves ? `(?: (${halves}))?` : ""}`, (m) => {
    const hour = hourOf(locale, m[at ? 2 : 1]!);
    const minutes = past[(m[at ? 3 : 2] ?? "").toLowerCase()];
    const prefix = at ? `${m[1]} ` : "";
    return locale === "fr" ? `${hour}h${minutes ?? ""}` : `${prefix}${hour}${minutes === undefined ? "" : `:${minutes}`}`;
  });
}

// Built per language on first use: twenty Unicode patterns compiled at start-up cost every request a millisecond or two.
const RULES: Partial<Record<Locale, () => readonly Rule[]>> = {
  // chrono reads only `3. März`; people also write `3 März` (English chrono then read "3 M", three minutes).
  de: () => [
    [
      /(?<![\p{L}\p{N}])(\d{1,2}) (?=(?:januar|jänner|februar|feber|märz|maerz|april|mai|juni|juli|august|september|oktober|november|dezember|jan|feb|mär|mrz|apr|jun|jul|aug|sept|sep|okt|nov|dez)\.?(?!\p{L}))/giu,
      (m) => `${m[1]}.`,
    ],
    hourRule("de", "(um|gegen) "),
  ],
  // French chrono reads `demain` inside `après-demain` (tomorrow), and no `15 heures` at all.
  fr: () => [
    rule("apr[eè]s[- ]demain", (_, ref) => dateAfter(ref, 2)),
    // chrono read `lundi` alone, the coming Monday, and left `de la semaine prochaine` as the text.
    rule(`(${FR_WEEKDAYS.join("|")}) de la semaine prochaine`, (m, ref) => nextWeeks(ref, FR_WEEKDAYS.indexOf(m[1]!.toLowerCase()))),
    hourRule("fr", "", " heures?"),
  ],
  es: () => [rule("pasado ma[nñ]ana", (_, ref) => dateAfter(ref, 2)), hourRule("es", "(a las|a la) ")],
  // Portuguese chrono reads neither `depois de amanhã` nor an hour with `h` or `horas` (`8 horas`, `8h`).
  pt: () => [
    rule("depois de amanh[aã]", (_, ref) => dateAfter(ref, 2)),
    hourRule("pt", "(às|as|à) ", "(?: ?(?:horas|hora|h))?"),
    rule("(\\d{1,2}) ?(?:horas|hora|h)", (m) => `${m[1]}:00`),
  ],
  it: () => [rule("dopo domani", () => "dopodomani"), hourRule("it", "(alle|verso le) ")],
  // `komende woensdag` is the coming Wednesday (said on a Tuesday, tomorrow), as the weekday alone is.
  nl: () => [
    rule("overmorgen", (_, ref) => dutchDateAfter(ref, 2)),
    [/(?<![\p{L}\p{N}])(?:komende|aanstaande) (?=\p{L})/giu, () => ""],
    hourRule("nl", "(om) "),
  ],
  // Russian chrono reads `15 часов` as fifteen hours from now, `18-го` not at all, and `next` only in the accusative.
  ru: () => [
    rule("(\\d{1,2}) (?:часов|часа|час)", (m) => `${m[1]}:00`),
    rule("(\\d{1,2})-(?:го|е|ое)", (m) => m[1]!),
    rule(`следующ(?:ий|ая|ее) (${Object.keys(RU_WEEKDAY).join("|")})`, (m) => `следующую ${RU_WEEKDAY[m[1]!.toLowerCase()] ?? m[1]}`),
  ],
};

const built = new Map<Locale, readonly Rule[]>();
function rulesOf(locale: Locale): readonly Rule[] | undefined {
  let rules = built.get(locale);
  if (!rules) {
    rules = RULES[locale]?.();
    if (rules) built.set(locale, rules);
  }
  return rules;
}

/** `text` as `locale`'s chrono reads it, or null when no rule applies. */
export function rewrite(locale: Locale, text: string, ref: Reference): Rewritten | null {
  const rules = rulesOf(locale);
  if (!rules) return null;
  let found: { index: number; length: number; to: string }[] = [];
  for (const [pattern, to] of rules) {
    for (const m of text.matchAll(pattern)) {
      // The first rule to claim a span keeps it.
      if (!found.some((f) => m.index < f.index + f.length && f.index < m.index + m[0].length))
        found.push({ index: m.index, length: m[0].length, to: to(m, ref) });
    }
  }
  if (found.length === 0) return null;
  found = found.sort((a, b) => a.index - b.index);
  let out = "";
  let last = 0;
  const spans: Rewritten["spans"] = [];
  for (const f of found) {
    out += text.slice(last, f.index);
    spans.push({ at: out.length, end: out.length + f.to.length, from: f.index, to: f.index + f.length });
    out += f.to;
    last = f.index + f.length;
  }
  return { text: out + text.slice(last), spans };
}

/** Where an offset of the rewritten text falls in the text as typed: inside a span, at its start or (`end`) its end. */
export function typedAt(r: Rewritten, at: number, end: boolean): number {
  let shift = 0;
  for (const s of r.spans) {
    if (at <= s.at) return at + shift;
    if (at < s.end) return end ? s.to : s.from;
    if (at === s.end) return s.to;
    shift = s.to - s.end;
  }
  return at + shift;
}
