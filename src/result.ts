/**
 * @module The one result type for expected failures: a value, or what went wrong. RPC loses error classes, so
 * the Durable Object returns these (docs/api.md) and throws only for bugs; the pure core returns them with a
 * sentence as the error.
 */

/** The codes an expected failure of the chat's object maps to (400, 404, 409 at the edge). */
export type ProblemCode = "bad_request" | "not_found" | "conflict";
/**
 * What a sentence says by name (a key of the replies' tables' `problems`, src/texts/) and its values, so that a chat
 * can say it in its own language; `message` is the English the API and the model read.
 */
export type Said = { key: string; args: readonly (string | number | boolean)[] };
export type Problem = { code: ProblemCode; message: string; said?: Said };

export type Result<T, E = Problem> = { ok: true; value: T } | { ok: false; error: E };
/** A parse of user input: a value, or one sentence saying what to fix. */
export type Parsed<T> = Result<T, string>;

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
/** An expected failure with its code and sentence. */
export const err = <T = never>(code: ProblemCode, message: string, said?: Said): Result<T> => ({
  ok: false,
  error: said === undefined ? { code, message } : { code, message, said },
});
/** A parse that failed, with the sentence. */
export const fail = <T = never>(error: string): Parsed<T> => ({ ok: false, error });
