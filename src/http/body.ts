/**
 * @module Request bodies at the edge: read at most 64 KiB, parse JSON, validate with a zod schema, and turn
 * the first problem into one sentence naming the field (400 `bad_request`), so input never causes a 500.
 */
import type { Context } from "hono";
import * as z from "zod";
import { readLimited } from "../bytes";
import { ApiError } from "./errors";
import { NOT_OBJECT, sentenceFor } from "../sentence";

export { NOT_OBJECT, sentenceFor };

/** Bodies over this many bytes are refused with 413 (DESIGN §10). */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE = "The body is larger than 64 KiB.";
const NOT_JSON = "The body is not valid JSON; send a JSON object.";

/**
 * The raw body, refused with 413 when its `Content-Length` says it is too large, or when reading the stream
 * passes the limit (a chunked body has no length, and a declared length is not trusted alone).
 */
export async function readBodyText(c: Context): Promise<string> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > MAX_BODY_BYTES)
    throw new ApiError("payload_too_large", TOO_LARGE);
  let bytes: Uint8Array | null;
  try {
    bytes = await readLimited(c.req.raw.body, MAX_BODY_BYTES);
  } catch {
    throw new ApiError("bad_request", "The body could not be read.");
  }
  if (bytes === null) throw new ApiError("payload_too_large", TOO_LARGE);
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
export function validate<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data, { error: sentenceFor });
  if (result.success) return result.data;
  throw new ApiError("bad_request", result.error.issues[0]?.message ?? NOT_OBJECT);
}

