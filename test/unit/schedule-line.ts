/** Test helper: a schedule in one line, so that a table row says everything it holds. */
import type { Schedule } from "../../src/words";

/** `at …`, `cron 0 8 * * *`, `rule FREQ=… from 2026-12-08T10:00`, with ` until …` and ` ×n` when said. */
export function scheduleLine(s: Schedule): string {
  const end = ("until" in s && s.until ? ` until ${s.until}` : "") + ("runsLeft" in s && s.runsLeft ? ` ×${s.runsLeft}` : "");
  if ("at" in s) return `at ${s.at}`;
  if ("cron" in s) return `cron ${s.cron}${end}`;
  return `rule ${s.rrule} from ${s.start}${end}`;
}
