/**
 * @module Pieces every resource schema shares (docs/api.md): the instants responses carry, the path's chat
 * and job ids, and the empty body of the routes that take none. Built on first use, like every schema here.
 */
import * as z from "zod";
import { CHAT_ID, JOB_ID } from "../contracts/ids";
import { lazy } from "../lazy";

/**
 * An instant as every response writes it: RFC 3339 UTC in `toISOString` form. Responses are written by the
 * code, never parsed from a client, so the format is documented rather than checked.
 */
export const instant = lazy(() => z.string().meta({ format: "date-time", description: "RFC 3339 UTC (toISOString form)." }));

/** A decimal Telegram chat id (docs/api.md#access). */
export const chatId = lazy(() =>
  z
    .string()
    .regex(CHAT_ID)
    .meta({ description: "A decimal Telegram chat id.", examples: ["123456789"] }),
);

/** A job id: 5 characters of the id alphabet, unique in its chat (docs/api.md#jobs). */
export const jobId = lazy(() =>
  z
    .string()
    .regex(JOB_ID)
    .meta({ description: "5 characters of `abcdefghjkmnpqrstuvwxyz23456789`, unique in its chat.", examples: ["k7m2q"] }),
);

/** The body of `/run`, `/pause`, `/resume` and `DELETE` (docs/api.md): none, or `{}`. */
export const emptyBody = lazy(() => z.strictObject({}).meta({ description: "No body: send none, or `{}`." }));

/** A string field: a missing one is "required", a wrong type shows the accepted form. */
export const str = (field: string, example: string) =>
  z.string({
    error: (issue) =>
      issue.input === undefined
        ? `"${field}" is required, such as ${JSON.stringify(example)}.`
        : `"${field}" must be a string such as ${JSON.stringify(example)}.`,
  });
