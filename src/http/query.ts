/**
 * @module The one reader of a route's query (docs/api.md): hono's `validator("query", …)` with the route's zod
 * schema, so a handler reads `c.req.valid("query")`, typed from the schema. Only the schema's parameters are
 * read, an empty value meaning none (a page sends `?category=&q=` for "All"), and any other parameter is
 * ignored, as a cache-buster would be; a number parameter written as digits becomes a number (anything else is
 * left for the schema's sentence). A repeated parameter counts once, its first value.
 */
import { validator } from "hono/validator";
import * as z from "zod";
import { validate } from "./body";

/** Whether the schema of a parameter reads a number (under its default or `optional`). */
function isNumber(field: z.ZodType): boolean {
  let inner: z.ZodType = field;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodNumber;
}

/** The query's parameters that `shape` names, as the schema reads them. */
function pick(shape: z.ZodRawShape, query: Record<string, string | string[]>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const given = query[name];
    const value = Array.isArray(given) ? given[0] : given;
    if (value === undefined || value === "") continue;
    raw[name] = isNumber(field as z.ZodType) && /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return raw;
}

/** The middleware that reads the query with `schema` (a lazy getter); a problem is 400 with its sentence. */
export const readQuery = <S extends z.ZodObject>(schema: () => S) =>
  validator("query", (query): z.output<S> => {
    const s = schema();
    return validate(s, pick(s.shape, query));
  });
