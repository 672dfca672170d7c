/**
 * Property tests over every JSON route's body (issue 12): whatever body arrives, the app never answers 5xx
 * and every error is the envelope `{ error: { code, message } }` with a code of docs/api.md and one sentence.
 * The routes come from the app's own OpenAPI document (so a new route is covered without touching this
 * file); bodies are arbitrary JSON, arbitrary text, and objects with the route's own field names holding
 * arbitrary values. Queue sends are kept out of the real consumer. Chat ids 8900000 up.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { openApiDocument } from "../../src/http/openapi";
import { call, chatStub, envWith, spyQueue } from "./helpers";
import { runnerVars } from "./watcher-helpers";

vi.setConfig({ testTimeout: 120_000 });

const CODES = new Set(["bad_request", "unauthorized", "forbidden", "not_found", "conflict", "payload_too_large", "config_error", "not_configured"]);
const CHAT = "8900000";
const SECRET = "property-test-secret";

type Operation = { method: string; path: string; fields: string[] };

/** Every operation that takes a request body, with the field names of its body schema. */
function operationsWithBodies(): Operation[] {
  const doc = openApiDocument("test") as unknown as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: { $ref?: string; properties?: object } }> } }>>;
    components: { schemas: Record<string, { properties?: object }> };
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const schema = op.requestBody?.content?.["application/json"]?.schema;
      if (!op.requestBody) continue;
      const resolved = schema?.$ref ? doc.components.schemas[schema.$ref.split("/").pop()!] : schema;
      ops.push({ method: method.toUpperCase(), path, fields: Object.keys(resolved?.properties ?? {}) });
    }
  }
  return ops;
}

/** The route's path with its parameters filled: this file's chat, and a job id that may or may not exist. */
const concrete = (path: string, jobId: string) => path.replace("{chatId}", CHAT).replace("{id}", jobId);

/** A body: arbitrary JSON, arbitrary text, or an object of the route's own fields with arbitrary values. */
const bodyFor = (fields: string[]) =>
  fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string({ unit: "binary", maxLength: 200 }),
    fields.length === 0
      ? fc.constant("{}")
      : fc
          .dictionary(fc.constantFrom(...fields), fc.oneof(fc.jsonValue(), fc.string({ unit: "binary" }), fc.integer(), fc.constant(null)), {
            maxKeys: fields.length,
          })
          .map((o) => JSON.stringify(o)),
  );

/**
 * Expects an answer that input did not break: no 5xx (but the 503 `not_configured` of a route whose remote is
 * not set up, which is the operator's state, not the body's), and an error, when it is one, is the envelope.
 */
async function expectWellFormed(res: Response, what: string): Promise<void> {
  if (res.status === 503) {
    expect(((await res.json()) as { error?: { code?: string } }).error?.code, what).toBe("not_configured");
    return;
  }
  expect(res.status, what).toBeLessThan(500);
  if (res.status < 400 || res.status === 405) {
    await res.body?.cancel();
    return;
  }
  const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
  expect(CODES.has(String(body.error?.code)), `${what}: ${JSON.stringify(body)}`).toBe(true);
  expect(typeof body.error?.message === "string" && body.error.message.length > 0, what).toBe(true);
  expect(Object.keys(body), what).toEqual(["error"]);
}

describe("every JSON route, any body", () => {
  let ops: Operation[];
  // Telegram and the runner are configured, so the webhook and the callback parse bodies too.
  const testEnv = envWith({
    ...runnerVars(),
    TELEGRAM_BOT_TOKEN: "123456:AAEproperty_tests_token_abcdefghij",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
    ALLOWED_USER_IDS: CHAT,
  });
  const transcriptEnv = envWith();

  beforeAll(async () => {
    ops = operationsWithBodies();
    await spyQueue(chatStub(CHAT));
  });

  it("covers the routes that take bodies", () => {
    expect(ops.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(["POST /admin/chats/{chatId}/jobs", "POST /tools/{chatId}/schedule", "POST /telegram/webhook", "POST /runner/callback/{chatId}"]),
    );
  });

  it("never answers 5xx, and every error is the envelope", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(bodyFor(op.fields), fc.constantFrom("k7m2q", "zzzzz", "0O1Il"), fc.boolean(), async (body, jobId, telegram) => {
          const path = concrete(op.path, jobId);
          const headers: Record<string, string> = { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET };
          const res = await call(path, { method: op.method, headers, body }, telegram ? testEnv : transcriptEnv);
          await expectWellFormed(res, `${op.method} ${path} ${body.slice(0, 120)}`);
        }),
        { numRuns: 100 },
      );
    }
    // What was logged: only malformed webhook updates, acknowledged as Telegram expects.
    expect(errors.mock.calls.every((c) => String(c[0]).startsWith("telegram: acknowledged a malformed update"))).toBe(true);
    errors.mockRestore();
  });
});
