/**
 * @module Preview (DESIGN §4): the next occurrences of a schedule in a zone, one note per occurrence a DST
 * transition moved, and a plain-English description.
 */
import { parseAt, resolveDelay, checkOneOff, formatWallTime, wallTimeNote } from "./at";
import { loadCron, parseCron, type CronSchedule } from "./cron";
import { formatHeader, formatLocalDateTime } from "./format";
import { nextOccurrence, type DstNote } from "./next";
import { fail, ok, type Parsed } from "../result";
import { formatOffsetMs } from "./zone";


/** One schedule: a cron expression, an `at` or a delay (which one a client gave is `oneSchedule`'s rule). */
export type PreviewInput = { cron: string } | { at: string } | { delay: string };
export type Preview = { occurrences: string[]; notes: string[]; description: string };

export const PREVIEW_DEFAULT_COUNT = 5;
export const PREVIEW_MAX_COUNT = 20;

/**
 * Previews a cron expression, an `at` or a delay in `zone`, with `from` standing for now. Errors are the
 * sentences of §3–§4 (a cron that never fires within 5 years, an `at` in the past, a delay out of range).
 */
export async function preview(input: PreviewInput, zone: string, from: number, count = PREVIEW_DEFAULT_COUNT): Promise<Parsed<Preview>> {
  if ("cron" in input) {
    await loadCron();
    const parsed = parseCron(input.cron);
    if (!parsed.ok) return parsed;
    return previewCron(parsed.value, zone, from, count);
  }
  if ("at" in input) {
    const parsed = parseAt(input.at, zone);
    if (!parsed.ok) return parsed;
    const { instant, local, resolution } = parsed.value;
    const checked = checkOneOff("at", instant, zone, from);
    if (!checked.ok) return checked;
    const note = local === null ? null : wallTimeNote(local, resolution, instant, zone);
    const notes = note === null ? [] : [note];
    return ok({ occurrences: [new Date(instant).toISOString()], notes, description: once(instant, zone) });
  }
  const resolved = await resolveDelay(input.delay, zone, from);
  if (!resolved.ok) return resolved;
  return ok({ occurrences: [new Date(resolved.value).toISOString()], notes: [], description: once(resolved.value, zone) });
}

function once(instant: number, zone: string): string {
  return `Once, at ${formatHeader(instant, zone).slice(1, -1)}.`;
}

/** The sentence for a cron expression with no occurrence within the search bound. */
export function neverFires(cron: CronSchedule): string {
  return `The cron expression "${cron.source}" never fires within 5 years; check its day-of-month, month and day-of-week fields.`;
}

async function previewCron(cron: CronSchedule, zone: string, from: number, count: number): Promise<Parsed<Preview>> {
  const occurrences: string[] = [];
  const notes: string[] = [];
  let after = from;
  for (let i = 0; i < count; i++) {
    const next = nextOccurrence(cron, zone, after);
    if (!next) {
      if (i === 0) return fail(neverFires(cron));
      break;
    }
    occurrences.push(new Date(next.at).toISOString());
    if (next.note) notes.push(noteText(next.note, next.at, zone));
    after = next.at;
  }
  return ok({ occurrences, notes, description: await describeCron(cron, zone) });
}

/** One sentence for an occurrence a DST transition moved. */
export function noteText(note: DstNote, at: number, zone: string): string {
  const wall = formatWallTime(note.local);
  switch (note.kind) {
    case "gap":
      return `${wall} does not exist in ${zone}; runs at ${formatLocalDateTime(at, zone).slice(11)}`;
    case "first":
      return `${wall} occurs twice in ${zone}; runs once, at the first (${formatOffsetMs(note.local - at)})`;
    case "second":
      return `${wall} occurs twice in ${zone}; runs at both, the second at ${formatOffsetMs(note.local - at)}`;
  }
}

/**
 * `At 08:00, Monday through Friday (Europe/Berlin)`; cronstrue's English with a 24-hour clock. cronstrue is
 * imported on first use: only previews need it, and it would otherwise be evaluated at start-up.
 */
export async function describeCron(cron: CronSchedule, zone: string): Promise<string> {
  const { default: cronstrue } = await import("cronstrue");
  let text: string;
  try {
    text = cronstrue.toString(cron.fields.join(" "), { use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    text = `Cron "${cron.source}"`;
  }
  // cronstrue joins the two day rules with "and on" whichever rule applies. When one field starts with `*`
  // both must match (`0 0 */2 * 1`: odd days that are Mondays), so say so.
  const bothRestricted = cron.fields[2] !== "*" && cron.fields[4] !== "*";
  if (bothRestricted && (cron.domStar || cron.dowStar)) text = text.replace(", and on ", ", when that day is a ");
  return `${text} (${zone})`;
}

