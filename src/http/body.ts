/**
 * @module Request bodies at the edge: read at most 64 KiB, parse JSON, validate with a zod schema, and turn
 * the first problem into one sentence naming the field (400 `bad_request`), so input never causes a 500.
 */
import type { Context } from "hono";
import * as z from "zod";
import { ApiError } from "./errors";

/** Bodies over this many bytes are refused with 413 (DESIGN §10). */
export const MAX_BODY_BYTES = 64 * 1024;

const TOO_LARGE = "The body is larger than 64 KiB.";
const NOT_JSON = "The body is not valid JSON; send a JSON object.";
export const NOT_OBJECT = "The body must be a JSON object.";

/**
 * The raw body, refused with 413 when its `Content-Length` says it is too large, or when reading the stream
 * passes the limit (a chunked body has no length, and a declared length is not trusted alone).
 */
export async function readBodyText(c: Context): Promise<string> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && /^\d+$/.test(declared.trim()) && Number(declared) > MAX_BODY_BYTES)
    throw new ApiError("payload_too_large", TOO_LARGE);
  const body = c.req.raw.body;
  if (body === null) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel().catch(() => {});
        throw new ApiError("payload_too_large", TOO_LARGE);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError("bad_request", "The body could not be read.");
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
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
export function validate<T>(schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data, { error: sentenceFor });
  if (result.success) return result.data;
  throw new ApiError("bad_request", result.error.issues[0]?.message ?? NOT_OBJECT);
}

/**
 * The generic sentence for a zod issue. Schemas give their own sentence (`z.number({ error: "…" })`) where a
 * field needs an accepted form shown; this covers the rest: unknown fields, missing fields, wrong types.
 */
export function sentenceFor(issue: z.core.$ZodRawIssue): string {
  const path = issue.path ?? [];
  const field = fieldName(path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const key = issue.keys[0] ?? "";
      return `Unknown field ${JSON.stringify(path.length ? `${fieldName(path, false)}.${key}` : key)}.`;
    }
    case "invalid_type":
      if (path.length === 0) return issue.expected === "object" ? NOT_OBJECT : `The body must be ${expected(issue.expected)}.`;
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${expected(issue.expected)}; got ${typeOf(issue.input)}.`;
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const word = issue.code === "too_small" ? "at least" : "at most";
      if (issue.origin === "string") return `${field} must be ${word} ${bound} characters long.`;
      if (issue.origin === "array") return `${field} must have ${word} ${bound} items.`;
      return `${field} must be ${word} ${bound}.`;
    }
    case "invalid_value":
      return `${field} must be ${issue.values.map((v) => JSON.stringify(v)).join(" or ")}.`;
    default:
      return path.length ? `${field} is not valid.` : NOT_OBJECT;
  }
}

function fieldName(path: readonly PropertyKey[], quoted = true): string {
  const name = path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
  return quoted ? JSON.stringify(name) : name;
}

function expected(type: string): string {
  switch (type) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "int":
      return "a whole number";
    case "boolean":
      return "true or false";
    case "object":
      return "a JSON object";
    case "array":
      return "a JSON array";
    default:
      return `a ${type}`;
  }
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return "a number";
  if (typeof value === "boolean") return value ? "true" : "false";
  return typeof value;
}
