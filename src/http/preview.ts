/**
 * @module `POST /admin/preview` (DESIGN §4 Preview, §10): validates the body's shape and hands the time rules
 * to the time engine; `from` defaults to the edge's clock, the only `Date.now()` on this path.
 */
import type { Context } from "hono";
import { parseZone, PREVIEW_DEFAULT_COUNT, preview } from "../time";
import { FROM_EXAMPLE, previewBody, type PreviewReply } from "../schemas/preview";
import { oneSchedule } from "../schemas/schedule";
import { readJson } from "./body";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { JOB_RULES, type Operation } from "./openapi-components";

export async function previewRoute(c: Context<AppEnv>) {
  const body = await readJson(c, previewBody());
  const when = oneSchedule(body);
  if (!when.ok) throw new ApiError("bad_request", when.error);

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
      throw new ApiError(
        "bad_request",
        `"from" must be an RFC 3339 instant such as ${FROM_EXAMPLE}; got ${JSON.stringify(body.from.slice(0, 60))}.`,
      );
    fromMs = instant;
  }

  const result = await preview(when.value, zone, fromMs, body.count ?? PREVIEW_DEFAULT_COUNT, { until: body.until ?? null, runsLeft: body.runsLeft ?? null });
  if (!result.ok) throw new ApiError("bad_request", result.error);
  const response: PreviewReply = { timeZone: zone, ...result.value };
  return c.json(response, 200);
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
  const ms = Number(((m[7] ?? "") + "000").slice(0, 3));
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
    summary: "The next occurrences of a schedule, with notes on DST-moved ones and a description.",
    access: "admin",
    body: "PreviewRequest",
    answers: [[200, "The preview.", "PreviewResponse"]],
    errors: { bad_request: `not exactly one of cron, at, delay and rrule (with start), an unknown zone, a \`from\` that is not an RFC 3339 instant, or ${JOB_RULES}` },
  },
];
