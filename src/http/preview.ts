/**
 * @module `POST /admin/preview` (DESIGN §4 Preview, §10): validates the body's shape and hands the time rules
 * to the time engine; `from` defaults to the edge's clock, the only `Date.now()` on this path.
 */
import type { Context } from "hono";
import * as z from "zod";
import { lazy } from "../lazy";
import { PREVIEW_DEFAULT_COUNT, PREVIEW_MAX_COUNT, parseZone, preview } from "../time";
import { readJson } from "./body";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

const COUNT = `"count" must be a whole number from 1 to ${PREVIEW_MAX_COUNT}.`;
const FROM_EXAMPLE = "2026-03-28T12:00:00Z";

/** The preview request: exactly one of `cron`, `at`, `delay` (checked after the types), unknown fields refused. */
export const previewBody = lazy(() => {
  const text = (field: string, example: string) =>
    z.string({ error: `"${field}" must be a string such as ${JSON.stringify(example)}.` });
  return z.strictObject({
    cron: text("cron", "0 9 * * 1-5").optional(),
    at: text("at", "2026-09-27T09:00").optional(),
    delay: text("delay", "PT20M").optional(),
    timeZone: text("timeZone", "Europe/Berlin").optional(),
    from: text("from", FROM_EXAMPLE).optional(),
    count: z
      .number({ error: COUNT })
      .int({ error: COUNT })
      .min(1, { error: COUNT })
      .max(PREVIEW_MAX_COUNT, { error: COUNT })
      .optional(),
  });
});
export type PreviewBody = z.infer<ReturnType<typeof previewBody>>;

export type PreviewResponse = { timeZone: string; occurrences: string[]; notes: string[]; description: string };

export async function previewRoute(c: Context<AppEnv>) {
  const body = await readJson(c, previewBody());
  const given = (["cron", "at", "delay"] as const).filter((key) => body[key] !== undefined);
  if (given.length !== 1)
    throw new ApiError(
      "bad_request",
      given.length === 0
        ? 'Give one of "cron", "at" or "delay", such as {"cron": "0 9 * * 1-5"}.'
        : `Give only one of "cron", "at" or "delay"; got ${given.map((k) => `"${k}"`).join(" and ")}.`,
    );

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

  const result = await preview(
    { cron: body.cron, at: body.at, delay: body.delay },
    zone,
    fromMs,
    body.count ?? PREVIEW_DEFAULT_COUNT,
  );
  if (!result.ok) throw new ApiError("bad_request", result.error);
  const response: PreviewResponse = { timeZone: zone, ...result.value };
  return c.json(response, 200);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/**
 * Epoch milliseconds of an RFC 3339 date-time with seconds and an offset (`2026-03-28T12:00:00Z`,
 * `2026-03-28T14:00:00.5+02:00`), or null; impossible dates (`2026-02-30`) are null, not rolled over.
 */
export function parseRfc3339(input: string): number | null {
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
