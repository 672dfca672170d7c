/**
 * The page's copy of a job (page/js/state.js, plain JS with JSDoc types) against the one list of a job's fields,
 * the zod schemas of src/schemas/jobs.ts (issue 23): the same fields, each optional, nullable and of the same
 * kind of value (string, number, boolean, list, object) as the API sends it. A field added to the schema and
 * not to the page, or the other way round, fails here.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { jobSchema, lastResultSchema } from "../../src/schemas/jobs";

type Shape = { optional: boolean; nullable: boolean; kind: string };

/** The typedef named `name` in the page's state.js, as `{ field: its JSDoc type }`. */
function typedef(name: string): Record<string, { optional: boolean; type: string }> {
  const source = readFileSync(new URL("../../page/js/state.js", import.meta.url), "utf8");
  const match = new RegExp(`@typedef \\{\\{((?:(?!@typedef)[\\s\\S])*?)\\}\\} ${name}\\n`).exec(source);
  if (!match) throw new Error(`page/js/state.js has no typedef ${name}`);
  const body = match[1]!.replace(/\n\s*\*/g, " ");
  const fields: Record<string, { optional: boolean; type: string }> = {};
  // Split at the commas outside braces and brackets.
  let depth = 0;
  let start = 0;
  const parts: string[] = [];
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch === "{" || ch === "[" || ch === "(") depth++;
    else if (ch === "}" || ch === "]" || ch === ")") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  for (const part of parts) {
    const field = /^\s*(\w+)(\?)?:\s*([\s\S]+?)\s*$/.exec(part);
    if (!field) throw new Error(`cannot read "${part.trim()}" in typedef ${name}`);
    fields[field[1]!] = { optional: field[2] === "?", type: field[3]! };
  }
  return fields;
}

/** A JSDoc type's shape: `| null` makes it nullable; the rest says what kind of value it is. */
function jsdocShape(field: { optional: boolean; type: string }): Shape {
  const alternatives = field.type.split(/\s*\|\s*(?![^{]*\})/).map((t) => t.trim());
  const nullable = alternatives.includes("null");
  const rest = alternatives.filter((t) => t !== "null");
  const kindOf = (t: string): string => {
    if (t.startsWith("{") || /^[A-Z]/.test(t)) return "object";
    if (t.endsWith("[]")) return "array";
    if (t.startsWith('"')) return "string";
    return t;
  };
  return { optional: field.optional, nullable, kind: [...new Set(rest.map(kindOf))].join(" | ") };
}

/** A zod field's shape, from its JSON Schema as the API documents it. */
function schemaShape(field: z.ZodType): Shape {
  const optional = field.safeParse(undefined).success;
  const json = z.toJSONSchema(field, { io: "output", unrepresentable: "any" }) as {
    type?: string | string[];
    anyOf?: { type?: string }[];
    enum?: unknown[];
    const?: unknown;
  };
  // A nullable string is `anyOf` with a format, `type: ["string", "null"]` without one.
  const alternatives = json.anyOf ?? (Array.isArray(json.type) ? json.type.map((type) => ({ type })) : [{ type: json.type }]);
  const nullable = alternatives.some((a) => a.type === "null");
  const kindOf = (a: { type?: string }): string => (a.type === "integer" ? "number" : (a.type ?? "object"));
  return { optional, nullable, kind: [...new Set(alternatives.filter((a) => a.type !== "null").map(kindOf))].join(" | ") };
}

function expectSameFields(name: string, schema: z.ZodObject): void {
  const page = typedef(name);
  expect(Object.keys(page).sort(), `the fields of ${name}`).toEqual(Object.keys(schema.shape).sort());
  for (const [key, field] of Object.entries(schema.shape)) {
    expect(jsdocShape(page[key]!), `${name}.${key}`).toEqual(schemaShape(field as z.ZodType));
  }
}

describe("page/js/state.js", () => {
  it("keeps Job as the API's job: the same fields, optional, nullable and of the same kind", () => {
    expectSameFields("Job", jobSchema());
  });

  it("keeps LastResult as the API's lastResult", () => {
    expectSameFields("LastResult", lastResultSchema());
  });

  it("reads a field the page lacks, or has too many, as drift", () => {
    const shape = jobSchema().shape;
    expect(() => expectSameFields("Job", jobSchema().extend({ notAField: z.boolean().optional() }))).toThrow(/the fields of Job/);
    expect(() => expectSameFields("Job", jobSchema().omit({ running: true }))).toThrow(/the fields of Job/);
    expect(() => expectSameFields("Job", jobSchema().extend({ nextRunAt: shape.lastRunAt.unwrap() }))).toThrow(/Job.nextRunAt/);
  });
});
