/**
 * The OpenAPI document (`GET /admin/openapi.json`, docs/api.md; issue 11): generated from the zod schemas, it is
 * a valid OpenAPI 3.1 document, each component is a valid JSON Schema 2020-12 under Ajv's strict mode (so a
 * `meta` key that is no keyword is caught), and it lists exactly the routes the Hono app serves. Plain Node:
 * the validators compile schemas to code, which workerd does not allow.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import { inspectRoutes } from "hono/dev";
import { describe, expect, it } from "vitest";
import { app } from "../../src/http/app";
import { openApiDocument } from "../../src/http/openapi";

type Document = ReturnType<typeof openApiDocument>;
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/** `METHOD /path` for every handler the app registered (middleware and the catch-alls of `use` left out). */
function servedRoutes(): string[] {
  const routes = inspectRoutes(app)
    .filter((route) => !route.isMiddleware && METHODS.has(route.method.toLowerCase()))
    .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
  return [...new Set(routes)].sort();
}

function documentedRoutes(doc: Document): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
    .sort();
}

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(openApiDocument("1.2.3"));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("has component schemas that are valid JSON Schema 2020-12, every $ref resolving", () => {
    const doc = openApiDocument("1.2.3");
    // The components as the `$defs` of one schema, so that their references resolve as in the document.
    const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
    const ajv = new Ajv2020({ strict: true, validateFormats: false });
    ajv.addSchema({ $id: "doc", $defs: defs });
    for (const name of Object.keys(defs)) expect(() => ajv.getSchema(`doc#/$defs/${name}`), name).not.toThrow();
  });

  it("lists exactly the routes the app serves, the Telegram webhook and the runner callback included", () => {
    const served = servedRoutes();
    expect(served).toContain("post /telegram/webhook");
    expect(served).toContain("post /runner/callback/{chatId}");
    expect(documentedRoutes(openApiDocument("1.2.3"))).toEqual(served);
  });

  it("is built on request, equal each time, with the version it is given", () => {
    const a = openApiDocument("1.2.3");
    expect(a.info.version).toBe("1.2.3");
    expect(JSON.stringify(openApiDocument("1.2.3"))).toBe(JSON.stringify(a));
  });
});
