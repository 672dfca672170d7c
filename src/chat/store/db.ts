/**
 * @module The chat's one handle on its SQLite database, shared by every store of the object, and how a store
 * reads a JSON column back.
 */
import * as z from "zod";

export type Db = { sql: SqlStorage };

/** The bound parameters of one statement are limited: statements over many ids go in chunks of this size. */
export const IDS_PER_STATEMENT = 50;

/** A JSON column parsed by `schema` (a malformed text fails the row like any other field). */
export const jsonOf = <T>(schema: z.ZodType<T>) =>
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "not JSON" });
        return z.NEVER;
      }
    })
    .pipe(schema);
