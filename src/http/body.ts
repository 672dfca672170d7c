/**
 * @module Request bodies at the edge: the one size limit (64 KiB, hono's `bodyLimit`, 413 `payload_too_large`),
 * JSON parsed and validated with a zod schema, and the first problem as one sentence naming the field (400
 * `bad_request`), so input never causes a 500.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type * as z from "zod";
import { NOT_OBJECT, sentenceFor } from "../sentence";
import { ApiError, errorResponse } from "./errors";

export { NOT_OBJECT, sentenceFor };

/** Bodies over this many bytes are refused with 413 (docs/api.md). */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE = "The body is larger than 64 KiB.";
const NOT_JSON = "The body is not valid JSON; send a JSON object.";

/** The limit of an import's body (`POST /admin/import`): a store's jobs with their scripts. */
export const MAX_IMPORT_BYTES = 1024 * 1024;

/**
 * The limit, for the route families that take bodies (mounted after their access checks, so a request without
 * a token learns nothing from it). A `Content-Length` over the limit is refused unread; a body without one
 * (chunked) is read up to the limit and refused as soon as it passes it. One route has a larger one (imports).
 */
export function limitBody(maxSize: number = MAX_BODY_BYTES): MiddlewareHandler {
  const sentence = maxSize === MAX_BODY_BYTES ? TOO_LARGE : `The body is larger than ${maxSize / (1024 * 1024)} MiB.`;
  return bodyLimit({ maxSize, onError: (c) => errorResponse(c, "payload_too_large", sentence) });
}

/** The raw body as UTF-8 text; its size was checked by `limitBody`. */
export async function readBodyText(c: Context): Promise<string> {
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch {
    throw new ApiError("bad_request", "The body could not be read.");
  }
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("bad_request", NOT_JSON);
  }
}

/**
 * The body parsed as JSON and validated by `schema`. An empty body is `emptyAs` when given (routes that take
 * no body accept empty or `{}`), else refused like any non-object.
 */
export async function readJson<T>(c: Context, schema: z.ZodType<T>, options: { emptyAs?: unknown } = {}): Promise<T> {
  const text = await readBodyText(c);
  let data: unknown;
  if (text.trim() === "") {
    if (!("emptyAs" in options)) throw new ApiError("bad_request", NOT_OBJECT);
    data = options.emptyAs;
  } else {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError("bad_request", NOT_JSON);
    }
  }
  return validate(schema, data);
}

/** `data` validated by `schema`, or a 400 whose message is the first problem as a sentence. */
export function validate<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data, { error: sentenceFor });
  if (result.success) return result.data;
  throw new ApiError("bad_request", result.error.issues[0]?.message ?? NOT_OBJECT);
}
