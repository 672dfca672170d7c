/**
 * @module One sentence per zod issue, naming the field and what would be right: shared by the HTTP edge
 * (400 bodies, tool replies) and the Durable Object (RPC arguments are parsed again there).
 */
import type * as z from "zod";
import { shown } from "./contracts/ids";
import { err, type Result } from "./result";

export const NOT_OBJECT = "The body must be a JSON object.";

/** The first problem of a failed parse as a sentence (schemas may carry their own, via `error`). */
export function firstSentence(error: z.ZodError): string {
  return error.issues[0]?.message ?? NOT_OBJECT;
}

/**
 * The one way an argument or a body is read: `value` parsed by `schema`, or `bad_request` with the first problem as
 * one sentence naming the field (the schema's own sentence where it has one).
 */
export function parseArgs<S extends z.ZodType>(schema: S, value: unknown): Result<z.output<S>> {
  const parsed = schema.safeParse(value, { error: sentenceFor });
  return parsed.success ? { ok: true, value: parsed.data } : err("bad_request", firstSentence(parsed.error));
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
      // The key is the client's: quoted as every echo is (printable, at most 40 characters).
      return `Unknown field ${JSON.stringify(shown(path.length ? `${fieldName(path, false)}.${key}` : key))}.`;
    }
    case "invalid_type":
      if (path.length === 0) return issue.expected === "object" ? NOT_OBJECT : `The body must be ${expected(issue.expected)}.`;
      if (issue.input === undefined) return `${field} is required.`;
      return `${field} must be ${expected(issue.expected)}; got ${typeOf(issue.input)}.`;
    case "too_small":
    case "too_big": {
      const bound = issue.code === "too_small" ? issue.minimum : issue.maximum;
      const word = issue.code === "too_small" ? "at least" : "at most";
      if (issue.origin === "string") return `${field} must be ${word} ${bound} character${Number(bound) === 1 ? "" : "s"} long.`;
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
