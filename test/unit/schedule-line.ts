/** Test helper: a schedule read in one line, so that a table row says everything it holds. */
import { scheduleFields, type Timing } from "../../src/time";

/** `at …`, `cron 0 8 * * *`, `rule FREQ=… from 2026-12-08T10:00`, with ` until …` (local, as kept) and ` ×n` when said. */
export function scheduleLine({ schedule, ends }: Timing): string {
  const end = (ends.until == null ? "" : ` until ${ends.until}`) + (ends.runsLeft ? ` ×${ends.runsLeft}` : "");
  const s = scheduleFields(schedule);
  if ("at" in s) return `at ${s.at}`;
  if ("cron" in s) return `cron ${s.cron}${end}`;
  return `rule ${s.rrule} from ${s.start}${end}`;
}
