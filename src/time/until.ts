/**
 * @module A recurring job's `until` (docs/time.md#jobs-that-end-until-and-runsleft): an `at`-form time read in the chat's zone, except that a
 * date alone means the whole of that day there (a person writing "until 2026-12-31" means the 31st too), as a
 * rule's date UNTIL does (`ruleEnds`).
 */

import { ok, type Parsed } from "../result";
import { parseAt } from "./at";
import { DAY_MS } from "./civil";
import { instantOfWall, toLocal } from "./zone";

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The instant `until` stands for: the last millisecond of a date alone, else the `at` rules' instant. */
export function parseUntil(input: string, zone: string): Parsed<number> {
  const parsed = parseAt(input, zone, "until");
  if (!parsed.ok) return parsed;
  if (!DATE_ONLY.test(input.trim())) return ok(parsed.value.instant);
  // The date's 09:00 (what `at` reads) lies on that day; the day ends where the next one's midnight begins.
  const local = toLocal(zone, parsed.value.instant);
  const midnight = local - (((local % DAY_MS) + DAY_MS) % DAY_MS) + DAY_MS;
  return ok(instantOfWall(zone, midnight) - 1);
}
