/**
 * @module How ical.js (Mozilla's iCalendar library, which Thunderbird and many web calendars read feeds with) passes over
 * an EXDATE, modelled near one daylight-saving change (docs/calendar.md#daylight-saving), so that the feed can list an
 * exclusion once more where ical.js would miss it. ical.js expands an RRULE in local order and keeps one pointer into
 * the sorted EXDATEs: an instance later than the EXDATE under the pointer moves it on by one, an equal one is excluded
 * (and moves it on). A spring-forward gap time, which ical.js reads as its wall time less the offset after the change,
 * can come out of order, after an instance later than it: by then the pointer has passed its EXDATE. The same EXDATE
 * listed once more is still under the pointer when the gap time comes. RFC 5545's recurrence set is a set, so a value
 * listed twice changes nothing for any other reader. Pure.
 */

/** At most this many values are listed again near one change (each turn adds one; a change has at most a few). */
const MAX_TURNS = 8;

/**
 * The EXDATE instants (as ical.js reads them) to list once more so that ical.js excludes every instance it expands at
 * an `excluded` instant: `expanded` is its instances in the order it expands them, `added` the RDATEs (sorted),
 * `excluded` the EXDATEs as listed (sorted, with any copies).
 */
export function listedAgain(expanded: readonly number[], added: readonly number[], excluded: readonly number[]): number[] {
  const unwanted = new Set(excluded);
  const again: number[] = [];
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const missed = firstMissed(
      expanded,
      added,
      [...excluded, ...again].sort((a, b) => a - b),
      unwanted,
    );
    if (missed === null) return again;
    again.push(missed);
  }
  return again;
}

/** The first instance ical.js shows although its instant is excluded, or null. */
function firstMissed(expanded: readonly number[], added: readonly number[], exdates: readonly number[], unwanted: ReadonlySet<number>): number | null {
  let p = 0;
  let i = 0;
  let j = 0;
  while (i < expanded.length || j < added.length) {
    // ical.js takes the RDATE first unless the rule's next instance is earlier.
    const fromRule = j >= added.length || (i < expanded.length && added[j]! > expanded[i]!);
    const t = fromRule ? expanded[i++]! : added[j++]!;
    const e = exdates[p];
    if (e !== undefined && t > e) p++;
    else if (e !== undefined && t === e) {
      p++;
      continue;
    }
    if (unwanted.has(t)) return t;
  }
  return null;
}
