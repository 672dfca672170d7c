/**
 * `GET /admin/openapi.json` (docs/api.md; issue 11) as a client reads it, and real answers of the app checked
 * against the document's own component schemas, so the document cannot drift from the code. The document's
 * validity as OpenAPI 3.1 and its route list are checked in Node (test/unit/openapi.test.ts), where the
 * validators may compile code; here @cfworker/json-schema, which runs in workerd, reads the served document.
 * Chat ids 3900xx.
 */

import { Validator } from "@cfworker/json-schema";
import { beforeAll, describe, expect, it } from "vitest";
import { version } from "../../package.json";
import type { openApiDocument } from "../../src/http/openapi";
import { gateOfferReply } from "../../src/schemas/agent";
import { messageAccepted } from "../../src/schemas/chats";
import { jobReply, runList } from "../../src/schemas/jobs";
import { runToken } from "./agent-helpers";
import { type Answer, call, chatStub, createJob, envWith, send, spyQueue } from "./helpers";

/** The document as src builds it; the test reads the one the route serves. */
type Document = ReturnType<typeof openApiDocument>;

let doc: Document;
beforeAll(async () => {
  const res = await call("/admin/openapi.json");
  expect(res.status).toBe(200);
  doc = (await res.json()) as Document;
});

/** Validates `value` against the served component `name`, its `$ref`s resolved within the document. */
function check(name: string, value: unknown): { valid: boolean; errors: string[] } {
  const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
  const result = new Validator({ $ref: `#/$defs/${name}`, $defs: defs }, "2020-12", false).validate(value);
  return { valid: result.valid, errors: result.errors.map((e) => `${e.instanceLocation} ${e.error}`) };
}

function expectAnswer(answer: Answer, status: number, name: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(check(name, answer.body), `${name}: ${JSON.stringify(answer.body)}`).toEqual({ valid: true, errors: [] });
}

describe("GET /admin/openapi.json", () => {
  it("is OpenAPI 3.1 with this version, bearer, runner and webhook security, and every $ref resolving", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe(version);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["bearer", "runnerSignature", "telegramSecret"]);
    expect(doc.components.securitySchemes.runnerSignature!.description).toContain('v2=<hex HMAC-SHA256 of "<t>.<METHOD> <target>.<raw body>"');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        "Error",
        "Job",
        "Run",
        "JobCreate",
        "JobEdit",
        "JobList",
        "ChatSettings",
        "ZoneChange",
        "ScheduleRequest",
        "ToolReply",
        "TestRequest",
        "RunnerOutcome",
      ]),
    );
    for (const [, name] of JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)) expect(doc.components.schemas, name).toHaveProperty(name!);
  });

  it("gives the schedule tool the guidelines of docs/api.md#tools-for-agents in its description", () => {
    const description = doc.paths["/tools/{chatId}/schedule"]!.post!.description ?? "";
    for (const phrase of [
      "chat's time zone",
      "ISO 8601",
      "5 fields",
      "needs thought",
      "prints nothing and exits 0 until its condition holds",
      "non-zero only on a real error",
      "`test` first",
    ])
      expect(description).toContain(phrase);
  });

  it("describes routes that answer (no path and method listed that has no route)", async () => {
    // The webhook exists only with a bot token (in transcript mode it answers 404 "No route").
    const bot = envWith({ TELEGRAM_BOT_TOKEN: "123456789:AAEabcdefghijklmnopqrstuvwxyz", TELEGRAM_WEBHOOK_SECRET: "hook-secret" });
    for (const [path, methods] of Object.entries(doc.paths))
      for (const method of Object.keys(methods)) {
        // Path parameters stay as "{chatId}": the route answers 400 for that chat id, the fallback 404 "No route".
        const withBody = ["post", "put", "patch"].includes(method);
        const init = { method: method.toUpperCase(), headers: { "Content-Type": "application/json" }, body: withBody ? "{}" : undefined };
        const res = await call(path, init, path.startsWith("/telegram/") ? bot : envWith());
        const text = await res.text();
        // GET /app answers the page (HTML); every other route answers JSON.
        const body = (text === "" || !(res.headers.get("Content-Type") ?? "").startsWith("application/json") ? {} : JSON.parse(text)) as {
          error?: { message: string };
        };
        expect(body.error?.message ?? "", `${method} ${path}`).not.toMatch(/^No route /);
      }
  });
});

describe("real answers match the document's schemas", () => {
  it("a schema refuses what the code never sends (an extra field, a wrong type, a missing field)", async () => {
    const job = await createJob("390001", { name: "Inbox", kind: "prompt", cron: "0 8 * * 1-5", text: "Summarise" });
    expect(check("Job", job).valid).toBe(true);
    expect(check("Job", { ...job, extra: 1 }).valid).toBe(false);
    expect(check("JobReply", { job: { ...job, extra: 1 } }).valid).toBe(false);
    expect(check("Job", { ...job, enabled: "yes" }).valid).toBe(false);
    const { running: _running, ...missing } = job;
    expect(check("Job", missing).valid).toBe(false);
  });

  it("jobs: created, listed, read, run, their runs, paused; settings and a zone change", async () => {
    const chat = "390002";
    await spyQueue(chatStub(chat));
    const jobs = `/admin/chats/${chat}/jobs`;
    const created = await send("POST", jobs, { name: "Price", kind: "watcher", cron: "*/10 * * * *", command: "echo hi", timeoutSeconds: 30 }).as(jobReply());
    expectAnswer(created, 201, "JobReply");
    const prompt = await send("POST", jobs, { name: "Inbox", kind: "prompt", cron: "0 8 * * 1-5", text: "Summarise" }).as(jobReply());
    expectAnswer(prompt, 201, "JobReply");
    const id = prompt.body.job.id;
    expectAnswer(await send("POST", `${jobs}/${id}/run`), 200, "JobReply");
    const runs = await send("GET", `${jobs}/${id}/runs`).as(runList());
    expectAnswer(runs, 200, "RunList");
    expect(runs.body.runs).toHaveLength(1);
    expectAnswer(await send("GET", jobs), 200, "JobList");
    expectAnswer(await send("GET", `${jobs}/${id}`), 200, "JobReply");
    expectAnswer(await send("PATCH", `${jobs}/${id}`, { name: "Inbox summary" }), 200, "JobReply");
    expectAnswer(await send("POST", `${jobs}/${created.body.job.id}/pause`), 200, "JobReply");
    expectAnswer(await send("GET", `/admin/chats/${chat}/settings`), 200, "ChatSettings");
    expectAnswer(await send("PUT", `/admin/chats/${chat}/settings`, { timeZone: "Asia/Tokyo" }), 200, "ZoneChange");
  });

  it("a preview, the health answers and the error envelope", async () => {
    expectAnswer(await send("POST", "/admin/preview", { cron: "30 2 * * *", timeZone: "Europe/Berlin", from: "2026-03-28T12:00:00Z" }), 200, "PreviewResponse");
    expectAnswer(await send("GET", "/healthz"), 200, "HealthOk");
    expectAnswer(await send("GET", "/healthz", undefined, envWith({ DEFAULT_TIMEZONE: "Mars/Olympus" })), 503, "HealthErrors");
    expectAnswer(await send("POST", "/admin/preview", { cron: "0 9 * * *", at: "2031-01-01" }), 400, "Error");
    expectAnswer(await send("GET", "/admin/chats/390003/jobs/zzzzz"), 404, "Error");
    expectAnswer(await send("POST", "/admin/preview", { cron: "0 9 * * *", pad: "x".repeat(65 * 1024) }), 413, "Error");
  });

  it("tool replies: create, list, preview, a refusal and set_timezone", async () => {
    const tool = (body: unknown) => send("POST", "/tools/390004/schedule", body);
    expectAnswer(await tool({ action: "create", name: "Tea", kind: "prompt", delay: "PT20M", text: "Tea is ready" }), 200, "ToolReply");
    expectAnswer(await tool({ action: "list" }), 200, "ToolReply");
    expectAnswer(await tool({ action: "preview", cron: "0 8 * * 1-5" }), 200, "ToolReply");
    const refused = await tool({ action: "preview" });
    expectAnswer(refused, 200, "ToolReply");
    expect(refused.body).toEqual({
      ok: false,
      text: 'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".',
    });
    expectAnswer(await send("POST", "/tools/390004/set_timezone", { zone: "Europe/Berlin" }), 200, "ToolReply");
  });

  it("the transcript, a user's message, and the run gate and deliver of an agent of your own", async () => {
    const chat = "390005";
    await spyQueue(chatStub(chat));
    const posted = await send("POST", `/admin/chats/${chat}/messages`, { text: "hello" }).as(messageAccepted());
    expectAnswer(posted, 202, "MessageAccepted");
    const message = {
      v: 1,
      key: `m:${posted.body.messageId}`,
      chatId: chat,
      timeZone: "UTC",
      source: "user",
      text: "hello",
      body: "hello",
      firedAt: new Date().toISOString(),
    };
    expect(check("PromptMessage", message).valid).toBe(true);
    const offer = await send("POST", `/tools/${chat}/gate/offer`, message).as(gateOfferReply());
    expectAnswer(offer, 200, "GateOffer");
    expectAnswer(await send("POST", `/tools/${chat}/gate/offer`, { ...message, key: "m:999" }), 200, "GateOffer");
    expectAnswer(await send("POST", `/tools/${chat}/deliver`, { key: message.key, markdown: "Hi." }), 200, "DeliverReply");
    expectAnswer(await send("POST", `/tools/${chat}/gate/next`, { token: runToken(offer) }), 200, "GateNext");
    expectAnswer(await send("GET", `/admin/chats/${chat}/messages`), 200, "Transcript");
  });

  it("the webhook's acknowledgement", async () => {
    const bot = envWith({ TELEGRAM_BOT_TOKEN: "123456789:AAEabcdefghijklmnopqrstuvwxyz", TELEGRAM_WEBHOOK_SECRET: "hook-secret", ALLOWED_USER_IDS: "42" });
    const update = { update_id: 1, message: { message_id: 1, from: { id: 7 }, chat: { id: 7, type: "private" }, text: "hi" } };
    expect(check("TelegramUpdate", update).valid).toBe(true);
    const res = await call(
      "/telegram/webhook",
      { method: "POST", headers: { "X-Telegram-Bot-Api-Secret-Token": "hook-secret" }, body: JSON.stringify(update) },
      bot,
    );
    expectAnswer({ status: res.status, body: await res.json() }, 200, "WebhookAck");
  });
});
