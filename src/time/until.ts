/**
 * @module A recurring job's `until` (docs/time.md#jobs-that-end-until-and-runsleft): the end as it was said, a
 * local date-time in the chat's zone without an offset (`2027-03-31T23:59`, like a rule's `start`), so that a zone
 * change keeps its meaning ("until 31 March" stays the end of the 31st wherever the chat moves). It is given as a
 * local date-time (the minute written), a date alone (the last minute of that day: "until 2027-03-31" means the
 * 31st too, as a rule's date UNTIL does) or an instant (`Z` or an offset: the minute it falls in there now). No
 * run is due after that minute there; runs are on whole minutes, so seconds are dropped.
 */

import { ok, type Parsed } from "../result";
import { parseAt } from "./at";
import { civilFields, DAY_MS, formatDate, formatHm, MINUTE_MS } from "./civil";
import { parseStart } from "./rule";
import { resolveLocal, toLocal } from "./zone";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(?:[Zz]|[+-]\d{2}:\d{2})$/;
/** The stored form: `yyyy-MM-ddTHH:mm`. */
export const LOCAL_UNTIL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** `yyyy-MM-ddTHH:mm` of a local time (local epoch ms), its seconds dropped. */
export function localUntil(local: number): string {
  const f = civilFields(Math.floor(local / MINUTE_MS) * MINUTE_MS);
  return `${formatDate(f)}T${formatHm(f)}`;
}

/** The local form of an instant's minute in `zone`. */
export function untilOfInstant(instant: number, zone: string): string {
  return localUntil(toLocal(zone, instant));
}

/** The last minute of a local day (its midnight, or any time on it). */
export function endOfDay(local: number): string {
  return localUntil(Math.floor(local / DAY_MS) * DAY_MS + DAY_MS - MINUTE_MS);
}

/**
 * `until` as given (docs/api.md#jobs): a local date-time, a date alone (its end), or an instant, read into the
 * stored local form in `zone`; the `at` rules' sentence when it is none of them.
 */
export function readUntil(input: string, zone: string): Parsed<string> {
  const text = input.trim();
  const parsed = parseAt(text, zone, "until");
  if (!parsed.ok) return parsed;
  if (DATE_ONLY.test(text)) return ok(endOfDay(parsed.value.local!));
  if (HAS_OFFSET.test(text)) return ok(untilOfInstant(parsed.value.instant, zone));
  return ok(localUntil(parsed.value.local!));
}

/** A stored `until` read back as local epoch ms; a bug when the row holds anything else. */
function localOf(until: string): number {
  // The start's reader reads the same form (its zone only names itself in sentences).
  const local = parseStart(until, "UTC");
  if (!local.ok || !LOCAL_UNTIL.test(until)) throw new Error(`"until" is not a local date-time: "${until}"`);
  return local.value;
}

/**
 * The instant a local `until` ends at in `zone`: its minute there. A minute that occurs twice ends at the second
 * (every run that reads as at or before it has come); one in a spring-forward gap at the first instant after it.
 */
export function untilInstant(until: string, zone: string): number {
  const r = resolveLocal(zone, localOf(until));
  return r.kind === "normal" ? r.instant : r.kind === "ambiguous" ? r.second : r.transition;
}

/** A local `until` as local epoch ms (for the words and formats that show it). */
export function untilLocal(until: string): number {
  return localOf(until);
}
