/**
 * @module The OpenAPI 3.1 document of the HTTP API (`GET /admin/openapi.json`, docs/api.md), generated on
 * request: the component schemas come from the zod schemas through zod's own `z.toJSONSchema`, the paths from
 * rows each route module keeps beside its routes (listed by `openapi-routes.ts`). Nothing here is built at
 * module scope.
 */
import * as z from "zod";
import { chatId, jobId } from "../schemas/common";
import { ERROR_STATUS, type ErrorCode } from "../schemas/errors";
import { memoryId } from "../schemas/memory";
import { type Access, type ComponentName, components, type Operation } from "./openapi-components";
import { operations } from "./openapi-routes";

type Json = { [key: string]: unknown };

const ref = (name: ComponentName): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ "application/json": { schema } });

/** How every schema of the document is converted. */
function conversion() {
  return {
    // A request is described as a client writes it. The response shapes have no transforms or defaults, so
    // their input is their output; a transform would throw here (zod's default), which a test would see.
    io: "input" as const,
    override: ({ jsonSchema }: { jsonSchema: z.core.JSONSchema.BaseSchema }) => {
      // `.int()` adds the safe-integer range, which tells a reader nothing.
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  };
}

/** A converted schema as the document holds it: no `$schema` (the document's dialect applies) and no `$id`. */
function bare(schema: z.core.JSONSchema.BaseSchema): Json {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** One JSON Schema per component, `$ref`s between them; the same conversion for each. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [name, schema] of Object.entries(components())) registry.add(schema(), { id: name });
  const { schemas } = z.toJSONSchema(registry, { ...conversion(), uri: (id) => `#/components/schemas/${id}` });
  // zod puts schemas that two components share and that it cannot inline (cycles) under `__shared`; none exist.
  if ("__shared" in schemas) throw new Error("A component shares a schema zod could not inline; give it a name in openapi-components.ts.");
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, bare(schema)]));
}

/** A parameter: the schema's description becomes the parameter's. */
function parameter(name: string, where: "path" | "query", schema: z.ZodType, description?: string): Json {
  const { description: own, ...converted } = bare(z.toJSONSchema(schema, conversion()));
  const text = description ?? own;
  return { name, in: where, required: where === "path", ...(text ? { description: text } : {}), schema: converted };
}

function parameters(op: Operation): Json[] {
  const list: Json[] = [];
  if (op.path.includes("{chatId}")) list.push(parameter("chatId", "path", chatId(), "A decimal Telegram chat id; anything else is 400 and creates nothing."));
  if (op.path.includes("{id}"))
    list.push(parameter("id", "path", jobId(), "A job id: 5 characters of `abcdefghjkmnpqrstuvwxyz23456789`; anything else is 404."));
  if (op.path.includes("{memoryId}")) {
    list.push(parameter("memoryId", "path", memoryId(), "A memory record id: 6 characters of `abcdefghjkmnpqrstuvwxyz23456789`; anything else is 404."));
  }
  if (op.path.includes("{token}"))
    list.push(parameter("token", "path", z.string(), "The hook's token: 32 lowercase letters and digits; anything else is 404 (`No hook at this address.`)."));
  for (const [name, field] of Object.entries(op.query?.().shape ?? {})) list.push(parameter(name, "query", field as z.ZodType));
  return list;
}

/** Why every route of a kind can fail, beside its own reasons (docs/api.md, docs/telegram.md, docs/watchers.md). */
function accessErrors(op: Operation): Partial<Record<ErrorCode, string>> {
  switch (op.access) {
    case "admin":
    case "tools":
      return {
        unauthorized: "the token is set and the request has no bearer token or a wrong one",
        forbidden:
          "open dev mode (CUCKOO_DEV=1, no token): the request is not from a localhost page, or a POST/PUT/PATCH is not application/json" +
          (op.access === "admin"
            ? "; a session cookie on a POST/PUT/PATCH/DELETE without this site's Origin or a JSON body; " +
              "a Mini App session outside its own chat and POST /admin/preview, or whose user left ALLOWED_USER_IDS"
            : ""),
        ...(op.alwaysServed ? {} : { config_error: "a var this route depends on is invalid; the message says which" }),
        not_configured: "deployed without the route's token; the message names the secret to set",
      };
    case "telegram":
      return {
        unauthorized: "the X-Telegram-Bot-Api-Secret-Token header does not match TELEGRAM_WEBHOOK_SECRET",
        not_found: "transcript mode (no TELEGRAM_BOT_TOKEN): there is no webhook",
        config_error: "a Telegram var is invalid; the message says which",
      };
    case "public":
    case "runner":
      return {};
  }
}

/** The answers, then each error code with every reason it has on this route, joined into one description. */
function responses(op: Operation): Json {
  const out: Json = {};
  for (const [status, description, schema] of op.answers) {
    if (status === 204) out[status] = { description };
    else if (op.html) out[status] = { description, content: { "text/html": { schema: { type: "string" } } } };
    else out[status] = { description, content: json(schema ? ref(schema) : { type: "object" }) };
  }
  const reasons = new Map<ErrorCode, string[]>();
  const add = (code: ErrorCode, reason: string) => reasons.set(code, [...(reasons.get(code) ?? []), reason]);
  if (op.path.includes("{chatId}")) add("bad_request", "the chat id is not a Telegram chat id");
  if (op.path.includes("{id}")) add("not_found", "no job with this id in this chat (`No job <id> in this chat.`)");
  if (op.path.includes("{memoryId}")) add("not_found", "no memory record with this id in this chat (`No memory record <id> in this chat.`)");
  if (op.anyBody) add("payload_too_large", `the body is over ${op.limit ?? "64 KiB"}`);
  if (op.body !== undefined) {
    if (!op.answersInput) add("bad_request", op.body === "EmptyBody" ? "a body other than none or `{}`" : "malformed JSON, or a body its schema refuses");
    add("payload_too_large", `the body is over ${op.limit ?? "64 KiB"}`);
  }
  for (const [code, reason] of Object.entries(accessErrors(op))) add(code as ErrorCode, reason);
  for (const [code, reason] of Object.entries(op.errors ?? {})) add(code as ErrorCode, reason);
  for (const [code, list] of reasons) {
    out[ERROR_STATUS[code]] = { description: `\`${code}\`: ${list.join("; ")}.`, content: json(ref("Error")) };
  }
  return out;
}

const SECURITY: Record<Access, Json[] | undefined> = {
  admin: undefined, // the document's default, bearer
  tools: undefined,
  public: [],
  runner: [{ runnerSignature: [] }],
  telegram: [{ telegramSecret: [] }],
};

function operation(op: Operation): Json {
  const params = parameters(op);
  const security = SECURITY[op.access];
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(security ? { security } : {}),
    ...(params.length ? { parameters: params } : {}),
    ...(op.anyBody
      ? {
          requestBody: {
            required: false,
            content: { "application/json": { schema: {} }, "text/plain": { schema: { type: "string" } } },
          },
        }
      : {}),
    ...(op.body
      ? { requestBody: op.body === "EmptyBody" ? { required: false, content: json(ref(op.body)) } : { required: true, content: json(ref(op.body)) } }
      : {}),
    responses: responses(op),
  };
}

/** The document, built on request. */
export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations()) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = operation(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Cuckoo",
      version,
      description:
        "A serverless scheduler for AI agents in Telegram chats. " +
        "Errors are `{ error: { code, message } }`, the message one sentence naming the field and showing an accepted form. " +
        "Bodies are JSON, at most 64 KiB (the runner's callback and imports: 1 MiB).",
    },
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description:
            "ADMIN_TOKEN for /admin/*, TOOLS_TOKEN for /tools/* and /mcp/*. " +
            "A Mini App session (`POST /app/session`) also stands for ADMIN_TOKEN on its own chat's routes and POST /admin/preview.",
        },
        runnerSignature: {
          type: "apiKey",
          in: "header",
          name: "X-Cuckoo-Signature",
          description:
            '`t=<unix seconds>,v2=<hex HMAC-SHA256 of "<t>.<METHOD> <target>.<raw body>" with RUNNER_SECRET>`, ' +
            "`<target>` being the path and query exactly as sent (a request without a body ends in `.`). " +
            'Accepted while `t` is within 300 s of now; the MAC is compared in constant time; `v1` (which signed only `"<t>.<raw body>"`) is refused.',
        },
        telegramSecret: {
          type: "apiKey",
          in: "header",
          name: "X-Telegram-Bot-Api-Secret-Token",
          description: "TELEGRAM_WEBHOOK_SECRET, as given to setWebhook; compared in constant time.",
        },
      },
      schemas: componentSchemas(),
    },
  };
}
