/** The edge as a whole: unknown routes, the bindings of docs/api.md#access and the queue consumers (the OpenAPI document: openapi.test.ts). */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { lines, quietConsole } from "./helpers";

describe("unknown routes", () => {
  it("answer 404 with the error envelope", async () => {
    const res = await exports.default.fetch("http://localhost/nope?x=1", { method: "DELETE" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: "not_found", message: "No route DELETE /nope; see GET /admin/openapi.json." },
    });
  });
});

describe("bindings", () => {
  it("reaches a ChatScheduler Durable Object over RPC", async () => {
    expect(await env.CHAT.getByName("123456789").ping()).toBe("pong");
  });

  it("has the D1 directory tables", async () => {
    const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('chats', 'jobs') ORDER BY name").all<{
      name: string;
    }>();
    expect(results.map((r) => r.name)).toEqual(["chats", "jobs"]);
  });
});

describe("queue consumers", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("acknowledge a message that is not a v1 prompt, and retry none, saying why for each", async () => {
    const errors = quietConsole("error");
    const batch = createMessageBatch<unknown>("prompts", [
      { id: "a", timestamp: new Date(0), attempts: 1, body: { v: 1 } },
      { id: "b", timestamp: new Date(0), attempts: 1, body: "hello" },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks.sort()).toEqual(["a", "b"]);
    expect(result.retryMessages).toEqual([]);
    expect(lines(errors).sort()).toEqual([
      "prompts: dropped a message that is not a v1 prompt: Invalid input: expected object, received string",
      "prompts: dropped a message that is not a v1 prompt: Invalid input: expected string, received undefined",
    ]);
  });
});
