/** The edge as a whole: unknown routes, the OpenAPI document, the bindings of DESIGN §2 and the queue consumers. */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { version } from "../../package.json";
import { call } from "./helpers";

describe("unknown routes", () => {
  it("answer 404 with the error envelope", async () => {
    const res = await exports.default.fetch("http://localhost/nope?x=1", { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "not_found", message: "No route DELETE /nope; see GET /admin/openapi.json." },
    });
  });
});

describe("GET /admin/openapi.json", () => {
  it("lists exactly the routes that exist, with the error envelope and bearer security", async () => {
    const res = await call("/admin/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, Record<string, unknown>>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(version);
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/admin/chats/{chatId}",
      "/admin/chats/{chatId}/jobs",
      "/admin/chats/{chatId}/jobs/{id}",
      "/admin/chats/{chatId}/jobs/{id}/pause",
      "/admin/chats/{chatId}/jobs/{id}/resume",
      "/admin/chats/{chatId}/jobs/{id}/run",
      "/admin/chats/{chatId}/jobs/{id}/runs",
      "/admin/chats/{chatId}/messages",
      "/admin/chats/{chatId}/settings",
      "/admin/chats/{chatId}/test",
      "/admin/openapi.json",
      "/admin/preview",
      "/healthz",
      "/runner/callback/{chatId}",
      "/tools/{chatId}/deliver",
      "/tools/{chatId}/gate/next",
      "/tools/{chatId}/gate/offer",
      "/tools/{chatId}/gate/settle",
      "/tools/{chatId}/schedule",
      "/tools/{chatId}/set_timezone",
    ]);
    const methods = Object.fromEntries(Object.entries(doc.paths).map(([path, ops]) => [path, Object.keys(ops).sort()]));
    expect(methods).toEqual({
      "/admin/chats/{chatId}": ["delete"],
      "/admin/chats/{chatId}/jobs": ["get", "post"],
      "/admin/chats/{chatId}/jobs/{id}": ["delete", "get", "patch"],
      "/admin/chats/{chatId}/jobs/{id}/pause": ["post"],
      "/admin/chats/{chatId}/jobs/{id}/resume": ["post"],
      "/admin/chats/{chatId}/jobs/{id}/run": ["post"],
      "/admin/chats/{chatId}/jobs/{id}/runs": ["get"],
      "/admin/chats/{chatId}/messages": ["get", "post"],
      "/admin/chats/{chatId}/settings": ["get", "put"],
      "/admin/chats/{chatId}/test": ["post"],
      "/admin/openapi.json": ["get"],
      "/admin/preview": ["post"],
      "/healthz": ["get"],
      "/runner/callback/{chatId}": ["post"],
      "/tools/{chatId}/deliver": ["post"],
      "/tools/{chatId}/gate/next": ["post"],
      "/tools/{chatId}/gate/offer": ["post"],
      "/tools/{chatId}/gate/settle": ["post"],
      "/tools/{chatId}/schedule": ["post"],
      "/tools/{chatId}/set_timezone": ["post"],
    });
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: "http", scheme: "bearer" }),
      runnerSignature: expect.objectContaining({ type: "apiKey", in: "header", name: "X-Cuckoo-Signature" }),
    });
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["Error", "Job", "Run", "JobCreate", "JobEdit", "JobList", "ChatSettings", "ZoneChange", "ScheduleRequest", "ToolReply", "TestRequest", "RunnerOutcome"]),
    );
    // Every $ref points at a schema that exists.
    for (const [, name] of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)) expect(doc.components.schemas, name).toHaveProperty(name!);
  });

  it("gives the schedule tool the guidelines of DESIGN §9 in its description", async () => {
    const doc = (await (await call("/admin/openapi.json")).json()) as { paths: Record<string, Record<string, { description?: string }>> };
    const description = doc.paths["/tools/{chatId}/schedule"]!.post!.description ?? "";
    for (const phrase of ["chat's time zone", "ISO 8601", "5 fields", "needs thought", "prints nothing and exits 0 until its condition holds", "non-zero only on a real error", "`test` first"])
      expect(description).toContain(phrase);
  });

  it("describes routes that answer (no path and method listed that has no route)", async () => {
    const doc = (await (await call("/admin/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, methods] of Object.entries(doc.paths))
      for (const method of Object.keys(methods)) {
        // Path parameters stay as "{chatId}": the route answers 400 for that chat id, the fallback 404 "No route".
        const withBody = ["post", "put", "patch"].includes(method);
        const res = await call(path, { method: method.toUpperCase(), headers: { "Content-Type": "application/json" }, body: withBody ? "{}" : undefined });
        const body = (await res.json()) as { error?: { message: string } };
        expect(body.error?.message ?? "", `${method} ${path}`).not.toMatch(/^No route /);
      }
  });
});

describe("bindings", () => {
  it("reaches a ChatScheduler Durable Object over RPC", async () => {
    expect(await env.CHAT.getByName("123456789").ping()).toBe("pong");
  });

  it("has the D1 directory tables", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('chats', 'jobs') ORDER BY name",
    ).all<{ name: string }>();
    expect(results.map((r) => r.name)).toEqual(["chats", "jobs"]);
  });
});

describe("queue consumers", () => {
  it("acknowledge a message that is not a v1 prompt, and retry none", async () => {
    const batch = createMessageBatch<unknown>("prompts", [
      { id: "a", timestamp: new Date(0), attempts: 1, body: { v: 1 } },
      { id: "b", timestamp: new Date(0), attempts: 1, body: "hello" },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["a", "b"]);
    expect(result.retryMessages).toEqual([]);
  });
});
