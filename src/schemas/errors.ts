/**
 * @module The error envelope of the HTTP edge (docs/api.md): `{ error: { code, message } }`, its codes and their
 * statuses. The edge's `ApiError` and `onError` (src/http/errors.ts) answer with it; the OpenAPI document
 * describes it from here.
 */
import type { ContentfulStatusCode } from "hono/utils/http-status";
import * as z from "zod";
import { lazy } from "../lazy";

/** The error codes of docs/api.md and their statuses; `internal` is only ever a bug, never caused by input. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  config_error: 500,
  not_configured: 503,
} as const satisfies Record<string, ContentfulStatusCode>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every error answer of the edge. */
export const errorEnvelope = lazy(() =>
  z
    .strictObject({
      error: z.strictObject({
        code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
        message: z.string().meta({ description: "One sentence a person or a model can act on: it names the field and shows an accepted form." }),
      }),
    })
    .meta({ description: "Every error: a code, and one sentence saying what was wrong and what would be right." }),
);
export type ErrorEnvelope = z.infer<ReturnType<typeof errorEnvelope>>;
