/** @module The preview request and answer (docs/time.md#preview, docs/api.md `POST /admin/preview`). */
import * as z from "zod";
import { lazy } from "../lazy";
import { PREVIEW_DEFAULT_COUNT, PREVIEW_MAX_COUNT } from "../time";
import { instant } from "./common";

const COUNT = `"count" must be a whole number from 1 to ${PREVIEW_MAX_COUNT}.`;
const RUNS = `"runsLeft" must be a whole number from 1 to 1000.`;
export const FROM_EXAMPLE = "2026-03-28T12:00:00Z";

/** A string field whose wrong type shows the accepted form. */
const text = (field: string, example: string) => z.string({ error: `"${field}" must be a string such as ${JSON.stringify(example)}.` });

/**
 * The preview request: exactly one of `cron`, `at`, `delay`, `rrule` (with `start`) (the one rule of
 * `oneSchedule`, checked after the types), where a recurring job would end, unknown fields refused.
 */
export const previewBody = lazy(() =>
  z
    .strictObject({
      cron: text("cron", "0 9 * * 1-5")
        .meta({ description: "Five fields or a macro, in the zone's wall-clock time.", examples: ["30 2 * * *"] })
        .optional(),
      at: text("at", "2026-09-27T09:00")
        .meta({ description: "ISO 8601 date or date-time; without an offset it is read in the zone.", examples: ["2026-09-27T09:00"] })
        .optional(),
      delay: text("delay", "PT20M")
        .meta({ description: "ISO 8601 duration from `from`, 1 minute to 5 years.", examples: ["PT20M"] })
        .optional(),
      rrule: text("rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU")
        .meta({
          description: "An RFC 5545 recurrence rule, expanded in the zone from `start`; its COUNT and UNTIL end it.",
          examples: ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"],
        })
        .optional(),
      start: text("start", "2026-12-08T10:00")
        .meta({ description: "With rrule only: its first local date-time in the zone, yyyy-MM-dd[T| ]HH:mm.", examples: ["2026-12-08T10:00"] })
        .optional(),
      until: text("until", "2026-12-31")
        .nullable()
        .meta({
          description:
            "With cron or rrule: no occurrence after this time in the zone: a local date-time, a date alone (the end of that day) " +
            "or an instant with an offset.",
          examples: ["2026-12-31"],
        })
        .optional(),
      runsLeft: z
        .number({ error: RUNS })
        .int({ error: RUNS })
        .nullable()
        .meta({ minimum: 1, maximum: 1000, description: "With cron or rrule: the occurrences stop after this many." })
        .optional(),
      when: text("when", "every other tuesday at 10")
        .max(500, { error: `"when" must be at most 500 characters, such as "every other tuesday at 10".` })
        .meta({
          description:
            "A schedule as a person types it, read as /remind and /every read it: a phrase in any of the bot's languages " +
            "(`tomorrow 9am`, `every other tuesday at 10`, `jeden Tag um 8 bis 31. Dezember`), a cron, an RRULE, an ISO `at` or a duration. " +
            "The answer's `schedule` is what it resolved to.",
          examples: ["every other tuesday at 10"],
        })
        .optional(),
      language: text("language", "de")
        .max(35, { error: `"language" must be a BCP 47 tag such as "de" or "pt-BR".` })
        .meta({
          description:
            "A BCP 47 tag: the language the description is in (en, de, fr, es, pt, it, nl, ru; English otherwise), and, with when, " +
            "the one the words are read in first and told what was not understood; default English, and every language the parser knows.",
          examples: ["de"],
        })
        .optional(),
      timeZone: text("timeZone", "Europe/Berlin")
        .meta({ description: "IANA zone (Windows ids accepted); default DEFAULT_TIMEZONE.", examples: ["Europe/Berlin"] })
        .optional(),
      from: text("from", FROM_EXAMPLE).meta({ format: "date-time", description: "The RFC 3339 instant that stands for now; default now." }).optional(),
      count: z
        .number({ error: COUNT })
        .int({ error: COUNT })
        .min(1, { error: COUNT })
        .max(PREVIEW_MAX_COUNT, { error: COUNT })
        .meta({ default: PREVIEW_DEFAULT_COUNT })
        .optional(),
    })
    .meta({ description: "Exactly one of cron, at, delay, rrule (with start), when." }),
);

/** What `when` resolved to: a job's schedule fields (docs/api.md#jobs), with the end the phrase said. */
export const resolvedSchedule = lazy(() => {
  const ends = {
    until: z
      .string()
      .optional()
      .meta({ description: "The end said (`until 31 dec`), a local date-time in the zone as a job keeps it.", examples: ["2026-12-31T23:59"] }),
    runsLeft: z.number().int().optional().meta({ description: "The number of runs said (`10 times`)." }),
  };
  return z
    .union([
      z.strictObject({ at: instant() }),
      z.strictObject({ cron: z.string(), ...ends }),
      z.strictObject({ rrule: z.string(), start: z.string().meta({ description: "Local `yyyy-MM-ddTHH:mm` in the zone." }), ...ends }),
    ])
    .meta({ description: "The fields to create the job with (`at`, `cron` or `rrule` + `start`, and `until`/`runsLeft`)." });
});
export type ResolvedSchedule = z.infer<ReturnType<typeof resolvedSchedule>>;

/** The preview: the next occurrences, a note per one a DST transition moved, a description, and what `when` resolved to. */
export const previewReplySchema = lazy(() =>
  z.strictObject({
    timeZone: z.string(),
    occurrences: z.array(instant()).meta({ description: "RFC 3339 UTC, in order." }),
    notes: z.array(z.string()).meta({ description: "One sentence per occurrence a DST transition moved." }),
    description: z.string().meta({
      description:
        "The schedule in words the reader reads back as the same schedule, in `language`, with the zone in parentheses " +
        "(`every weekday at 08:30 (Europe/Berlin)`); a cron or rule no phrase says, as written.",
    }),
    schedule: resolvedSchedule().optional().meta({ description: "With `when` only: the schedule it resolved to, as a create takes it." }),
  }),
);
export type PreviewReply = z.infer<ReturnType<typeof previewReplySchema>>;
