/**
 * @module `POST /admin/preview` (docs/time.md#words-when, Preview; docs/api.md): validates the body's shape and hands the time
 * rules to the time engine; `from` defaults to the edge's clock, the only `Date.now()` on this path. `when` is
 * read by the one parser from words to a schedule (`readSchedule`, as `/remind` and `/every` read it, the whole
 * text being the schedule), and the answer says what it resolved to (`schedule`), with the end said; an
 * `until` or `runsLeft` given beside it wins over the one said.
 */
import type { Context } from "hono";
import type { Parsed } from "../result";
import { FROM_EXAMPLE, type PreviewReply, previewBody, type ResolvedSchedule } from "../schemas/preview";
import { oneSchedule, SCHEDULE_FIELDS } from "../schemas/schedule";
import { PREVIEW_DEFAULT_COUNT, type Preview, type PreviewEnds, parseZone, preview, previewSchedule, readEnds, scheduleFields } from "../time";
import { describe, readSchedule } from "../words";
import { readJson } from "./body";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { JOB_RULES, type Operation } from "./openapi-components";

/** None or more than one of the schedule forms, `when` among them. */
export const ONE_PREVIEW =
  'Give exactly one of "at", "cron", "delay", "rrule" (with "start") or "when", such as "when": "every other tuesday at 10" or "cron": "0 8 * * 1-5".';

export async function previewRoute(c: Context<AppEnv>) {
  const body = await readJson(c, previewBody());
  const written = SCHEDULE_FIELDS.some((field) => body[field] !== undefined) || body.start !== undefined;
  if (body.when !== undefined && written) throw new ApiError("bad_request", ONE_PREVIEW);
  // The preview takes `when` too: its sentence for none or several names it.
  const when = body.when === undefined ? oneSchedule(body, { oneOf: ONE_PREVIEW }) : null;
  if (when && !when.ok) throw new ApiError("bad_request", when.error);

  let zone = c.var.config.defaultTimeZone;
  if (body.timeZone !== undefined) {
    const parsed = parseZone(body.timeZone);
    if (!parsed.ok) throw new ApiError("bad_request", parsed.error);
    zone = parsed.value;
  }

  let fromMs = Date.now();
  if (body.from !== undefined) {
    const instant = parseRfc3339(body.from);
    if (instant === null)
      throw new ApiError("bad_request", `"from" must be an RFC 3339 instant such as ${FROM_EXAMPLE}; got ${JSON.stringify(body.from.slice(0, 60))}.`);
    fromMs = instant;
  }

  const count = body.count ?? PREVIEW_DEFAULT_COUNT;
  const given: PreviewEnds = { until: body.until ?? null, runsLeft: body.runsLeft ?? null };
  let resolved: ResolvedSchedule | undefined;
  let notes: string[] = [];
  let result: Parsed<Preview>;
  if (when) result = await preview(when.value, zone, fromMs, count, given);
  else {
    const read = await readSchedule(body.when ?? "", { zone, now: fromMs, language: body.language ?? null, whole: true });
    if (!read.ok) throw new ApiError("bad_request", read.message);
    // A description ends with its zone in parentheses: the words are read, and previewed, there.
    zone = read.value.zone;
    const { schedule, ends: said } = read.value;
    // A one-off's wall time a DST change moved: the parser read it; the preview sees only the instant.
    if (read.value.note !== null) notes = [read.value.note];
    if (schedule.type === "at") result = await preview({ at: new Date(schedule.at).toISOString() }, zone, fromMs, count, given);
    else {
      // The schedule as it was read; an end given beside the words wins over the one said.
      const ends = readEnds(given, zone);
      if (!ends.ok) throw new ApiError("bad_request", ends.error);
      const until = body.until === undefined ? (said.until ?? null) : ends.value.until;
      const runsLeft = body.runsLeft === undefined ? (said.runsLeft ?? null) : ends.value.runsLeft;
      result = await previewSchedule(schedule, { until, runsLeft }, zone, fromMs, count);
    }
    if (result.ok) resolved = resolvedOf(result.value.read);
  }
  if (!result.ok) throw new ApiError("bad_request", result.error);
  const { occurrences, read } = result.value;
  const description = `${await describe(read.schedule, read.ends, { zone, now: fromMs, language: body.language ?? null })} (${zone})`;
  const response: PreviewReply = {
    timeZone: zone,
    occurrences,
    notes: [...notes, ...result.value.notes],
    description,
    ...(resolved ? { schedule: resolved } : {}),
  };
  return c.json(response, 200);
}

/** What the words resolved to, as a create takes it: the schedule's fields, and the ends (`until` a local date-time). */
function resolvedOf({ schedule, ends }: Preview["read"]): ResolvedSchedule {
  const fields = scheduleFields(schedule);
  if ("at" in fields) return fields;
  return { ...fields, ...(ends.until === null ? {} : { until: ends.until }), ...(ends.runsLeft === null ? {} : { runsLeft: ends.runsLeft }) };
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Epoch milliseconds of an RFC 3339 date-time with seconds and an offset (`2026-03-28T12:00:00Z`,
 * `2026-03-28T14:00:00.5+02:00`), or null; impossible dates (`2026-02-30`) are null, not rolled over.
 */
function parseRfc3339(input: string): number | null {
  const m = RFC3339.exec(input);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const ms = Number(`${m[7] ?? ""}000`.slice(0, 3));
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime() - offsetMinutes * 60_000;
}

/** What the OpenAPI document says of `POST /admin/preview`: `openapi.ts` builds it, a test checks it against the app. */
export const previewOperations = (): Operation[] => [
  {
    method: "post",
    path: "/admin/preview",
    summary:
      "The next occurrences of a schedule (or of words, `when`, read as the bot reads them), with notes on DST-moved ones, a description, " +
      "and what the words resolved to.",
    access: "admin",
    body: "PreviewRequest",
    answers: [[200, "The preview.", "PreviewResponse"]],
    errors: {
      bad_request:
        "not exactly one of cron, at, delay, rrule (with start) and when, words that read as no schedule " +
        `(the sentence says what was not understood), an unknown zone, a \`from\` that is not an RFC 3339 instant, or ${JOB_RULES}`,
    },
  },
];
