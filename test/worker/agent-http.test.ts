/**
 * The agent path over HTTP (docs/agent.md, docs/api.md, issue 4): writing to a chat in transcript mode (`POST
 * /admin/chats/:chatId/messages`, then the consumer's echo reply), reading the transcript (`GET …/messages`),
 * and the run gate and deliver for your own agent under `/tools/:chatId/gate/*` and `/tools/:chatId/deliver`.
 * Every chat has a non-forwarding spy on its `PROMPTS` binding; the tests feed the consumer themselves.
 * Chat ids 4030000 up.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { gateOfferReply } from "../../src/schemas/agent";
import { messageAccepted, transcriptSchema } from "../../src/schemas/chats";
import { expectGateFree, expectPromptText, feed, NO_MODEL, runToken, userMessage } from "./agent-helpers";
import { brief, chatIds, clockAround, envWith, expectSpyInPlace, fireJob, fits, historyOf, inObject, must, send, spyQueue, transcript } from "./helpers";

const newChat = chatIds(4_030_000);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const bad = (message: string) => ({ status: 400, body: { error: { code: "bad_request", message } } });
const TEXT = `"text" must be a string of 1 to 4096 characters, such as "What is on my list today?".`;
const LIMIT = `"limit" must be a whole number from 1 to 500.`;
const TOKEN = `"token" must be the string that "offer" returned.`;

// ── Writing to a chat in transcript mode ────────────────────────────────────────────────────────────────

describe("POST /admin/chats/:chatId/messages", () => {
  it("answers 202 { messageId }, writes a user entry, queues m:<messageId>, and the consumer answers with the echo sentence", async () => {
    const { chatId, stub } = newChat();
    await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    const sent = await spyQueue(stub);

    const {
      value: res,
      t0: before,
      t1: after,
    } = await clockAround(stub, () => send("POST", `/admin/chats/${chatId}/messages`, { text: "What is on my list today?" }).as(messageAccepted()));
    expect(res.status).toBe(202);
    expect(Object.keys(res.body)).toEqual(["messageId"]);
    const { messageId } = res.body;
    expect(messageId).toMatch(/^\d+$/);

    // What the chat sent to the queue: the v1 message with key m:<messageId>.
    await expectSpyInPlace(stub, sent);
    expect(sent).toHaveLength(1);
    const message = sent[0]!.body as PromptMessage;
    expect(message).toEqual({
      v: 1,
      key: `m:${messageId}`,
      chatId,
      timeZone: "Asia/Tokyo",
      source: "user",
      text: "What is on my list today?",
      body: "What is on my list today?",
      firedAt: expect.stringMatching(ISO_INSTANT),
      messageId,
    });
    // Stamped by the object, on its clock.
    expect(Date.parse(message.firedAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(message.firedAt)).toBeLessThanOrEqual(after);
    expect(brief(await transcript(stub, chatId))).toEqual([{ role: "user", source: "admin", text: "What is on my list today?" }]);

    const t0 = Date.now();
    const fed = await feed([message]);
    const t1 = Date.now();
    expect(fed.explicitAcks).toEqual(fed.ids);

    const got = await send("GET", `/admin/chats/${chatId}/messages`).as(transcriptSchema());
    expect(got.status).toBe(200);
    expect(got.body.chatId).toBe(chatId);
    const messages = got.body.messages;
    expect(messages.map((m) => [m.role, m.source])).toEqual([
      ["user", "admin"],
      ["prompt", "admin"],
      ["bot", "admin"],
    ]);
    expectPromptText(messages[1]!.text, "Asia/Tokyo", t0, t1, "What is on my list today?");
    expect(messages[2]!.text).toBe(NO_MODEL);
  });

  it("answers 409 when the bot is connected to Telegram, and writes and sends nothing", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    const telegram = envWith({ TELEGRAM_BOT_TOKEN: "123456789:AAEabcdefghijklmnopqrstuvwxyz", TELEGRAM_WEBHOOK_SECRET: "hook-secret" });
    const res = await send("POST", `/admin/chats/${chatId}/messages`, { text: "hello" }, telegram);
    expect(res).toEqual({ status: 409, body: { error: { code: "conflict", message: "The bot is connected to Telegram; write to it there." } } });
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("refuses a text that is empty, too long or missing with one sentence", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    for (const body of [{ text: "" }, { text: "x".repeat(4097) }, { text: 5 }]) {
      expect(await send("POST", `/admin/chats/${chatId}/messages`, body)).toEqual(bad(TEXT));
    }
    // Neither a text nor a press (issue 14: a button of a bot entry is pressed with { press }).
    expect(await send("POST", `/admin/chats/${chatId}/messages`, {})).toEqual(
      bad(`Give exactly one of "text" (a message) or "press" (a button's data), such as {"text": "/jobs"}.`),
    );
    expect(await transcript(stub, chatId)).toEqual([]);
    expect(sent).toEqual([]);
  });

  it("takes a text of exactly 4096 characters", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const res = await send("POST", `/admin/chats/${chatId}/messages`, { text: "y".repeat(4096) });
    expect(res.status).toBe(202);
  });
});

// ── Reading the transcript ──────────────────────────────────────────────────────────────────────────────

describe("GET /admin/chats/:chatId/messages", () => {
  it("answers { chatId, messages } oldest first, the last N with ?limit=N, with jobId and runId only on a job's entries", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Stand up." });
    await must(stub.deliver("m:1", "first"));
    await feed([message]);
    await must(stub.deliver("m:2", "last"));

    const all = await send("GET", `/admin/chats/${chatId}/messages`).as(transcriptSchema());
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(["chatId", "messages"]);
    const messages = all.body.messages;
    expect(messages.map((m) => m.text)).toEqual(["first", expect.stringContaining("Stand up."), "Stand up.", "last"]);
    // A bot entry has its HTML as Telegram shows it (issue 25); the prompt, what the agent saw, has none.
    expect(Object.keys(messages[0]!).sort()).toEqual(["at", "html", "id", "role", "source", "text"]);
    expect(Object.keys(messages[1]!).sort()).toEqual(["at", "id", "jobId", "role", "runId", "source", "text"]);
    // A job's message keeps the buttons Telegram shows under it (issues 14, 25: a recurring job's, for its run).
    expect(Object.keys(messages[2]!).sort()).toEqual(["at", "buttons", "html", "id", "jobId", "role", "runId", "source", "text"]);
    expect(messages[2]).toMatchObject({ role: "bot", source: "job", jobId: job.id, runId, html: "Stand up." });
    expect(messages[2]!.buttons).toEqual([
      [
        { text: "Done", data: `d:${runId}` },
        { text: "Snooze 1 h", data: `s:60:${runId}` },
      ],
      [
        { text: "Skip next", data: `k:${runId}` },
        { text: "Pause", data: `p:${runId}` },
      ],
    ]);
    for (const m of messages) {
      expect(m.id).toMatch(/^\d+$/);
      expect(m.at).toMatch(ISO_INSTANT);
    }

    const two = await send("GET", `/admin/chats/${chatId}/messages?limit=2`);
    expect(two.status).toBe(200);
    expect(two.body).toEqual({ chatId, messages: messages.slice(2) });
  });

  it("gives 50 by default and at most 500", async () => {
    const { chatId, stub } = newChat();
    // Inside the object, in one round trip from the test (not 60).
    await inObject(stub, async (chat) => {
      for (let i = 1; i <= 60; i++) await must(chat.deliver(`m:${i}`, `#${i}`));
    });
    const byDefault = await send("GET", `/admin/chats/${chatId}/messages`).as(transcriptSchema());
    expect(byDefault.body.messages.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => `#${i + 11}`));
    const empty = await send("GET", `/admin/chats/${chatId}/messages?limit=`).as(transcriptSchema());
    expect(empty.body.messages).toHaveLength(50);
    const most = await send("GET", `/admin/chats/${chatId}/messages?limit=500`).as(transcriptSchema());
    expect(most.body.messages).toHaveLength(60);
  });

  it("refuses a limit that is not a whole number from 1 to 500 with one sentence", async () => {
    const { chatId } = newChat();
    for (const limit of ["0", "501", "-1", "1.5", "ten", "1e2", "0x10"]) {
      expect(await send("GET", `/admin/chats/${chatId}/messages?limit=${limit}`), limit).toEqual(bad(LIMIT));
    }
  });

  it("answers an unused chat with an empty transcript", async () => {
    const { chatId } = newChat();
    expect(await send("GET", `/admin/chats/${chatId}/messages`)).toEqual({ status: 200, body: { chatId, messages: [] } });
  });

  it("is listed in the OpenAPI document with GET and POST (docs/api.md: the document of all the admin routes)", async () => {
    const doc = await send("GET", "/admin/openapi.json");
    const { paths } = fits(doc.body, z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) }), "the OpenAPI document");
    const ops = paths["/admin/chats/{chatId}/messages"];
    expect(Object.keys(ops ?? {}).sort()).toEqual(["get", "post"]);
  });
});

// ── The run gate and deliver for your own agent ─────────────────────────────────────────────────────────

describe("POST /tools/:chatId/gate/* and /tools/:chatId/deliver", () => {
  it("offer → run with a token, deliver, settle → 204, next → null: the job's run settles and the gate is free", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId, message } = await fireJob(chatId, stub, { cron: true, text: "Back up the laptop." });

    const offer = await send("POST", `/tools/${chatId}/gate/offer`, message).as(gateOfferReply());
    expect(offer.status).toBe(200);
    expect(Object.keys(offer.body).sort()).toEqual(["result", "token"]);
    expect(offer.body.result).toBe("run");
    const token = runToken(offer);

    expect(await send("POST", `/tools/${chatId}/deliver`, { key: runId, markdown: "Backed up." })).toEqual({ status: 200, body: { delivered: true } });
    expect(await send("POST", `/tools/${chatId}/gate/settle`, { token, key: runId, status: "delivered" })).toEqual({ status: 204, body: null });
    expect(await send("POST", `/tools/${chatId}/gate/next`, { token })).toEqual({ status: 200, body: { message: null } });

    expect(brief(await transcript(stub, chatId))).toEqual([{ role: "bot", source: "job", text: "Backed up.", jobId: job.id, runId }]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[runId, "settled", "delivered"]]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "delivered" } });
    await expectGateFree(stub, chatId);
    // Offered again (a redelivery): a duplicate.
    expect(await send("POST", `/tools/${chatId}/gate/offer`, message)).toEqual({ status: 200, body: { result: "duplicate" } });
  });

  it("offer → run, next → { message: null }, settle → 204 for a user message", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const message = userMessage(chatId, "5", "hi");
    const offer = await send("POST", `/tools/${chatId}/gate/offer`, message).as(gateOfferReply());
    expect(offer.body.result).toBe("run");
    expect(await send("POST", `/tools/${chatId}/gate/next`, { token: runToken(offer) })).toEqual({ status: 200, body: { message: null } });
    expect(await send("POST", `/tools/${chatId}/gate/settle`, { token: runToken(offer), key: message.key, status: "delivered" })).toEqual({
      status: 204,
      body: null,
    });
    await expectGateFree(stub, chatId);
  });

  it("a second offer while the gate is held is queued, and next hands it to the holder", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const m1 = userMessage(chatId, "1", "one");
    const m2 = userMessage(chatId, "2", "two");
    const { token } = (await send("POST", `/tools/${chatId}/gate/offer`, m1)).body as { token: string };
    expect(await send("POST", `/tools/${chatId}/gate/offer`, m2)).toEqual({ status: 200, body: { result: "queued" } });
    await send("POST", `/tools/${chatId}/gate/settle`, { token, key: m1.key, status: "delivered" });
    expect(await send("POST", `/tools/${chatId}/gate/next`, { token })).toEqual({ status: 200, body: { message: m2 } });
    // m2 was waiting once: the holder is handed nothing more.
    await send("POST", `/tools/${chatId}/gate/settle`, { token, key: m2.key, status: "delivered" });
    expect(await send("POST", `/tools/${chatId}/gate/next`, { token })).toEqual({ status: 200, body: { message: null } });
  });

  it("deliver answers { delivered: true } then { delivered: false } for the same key, with one entry", async () => {
    const { chatId, stub } = newChat();
    expect(await send("POST", `/tools/${chatId}/deliver`, { key: "m:1", markdown: "One." })).toEqual({ status: 200, body: { delivered: true } });
    expect(await send("POST", `/tools/${chatId}/deliver`, { key: "m:1", markdown: "Two." })).toEqual({ status: 200, body: { delivered: false } });
    expect(brief(await transcript(stub, chatId))).toEqual([{ role: "bot", source: "admin", text: "One." }]);
  });

  it("a stale job prompt (its job cancelled after dispatch) is a duplicate and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, message } = await fireJob(chatId, stub, { cron: true });
    await must(stub.cancelJob(chatId, job.id));
    expect(await send("POST", `/tools/${chatId}/gate/offer`, message)).toEqual({ status: 200, body: { result: "duplicate" } });
    expect(await transcript(stub, chatId)).toEqual([]);
    await expectGateFree(stub, chatId);
  });

  it("refuses a missing token with one sentence", async () => {
    const { chatId } = newChat();
    expect(await send("POST", `/tools/${chatId}/gate/next`, {})).toEqual(bad(TOKEN));
    expect(await send("POST", `/tools/${chatId}/gate/next`, { token: "" })).toEqual(bad(TOKEN));
    expect(await send("POST", `/tools/${chatId}/gate/settle`, { key: "m:1", status: "delivered" })).toEqual(bad(TOKEN));
  });

  it("refuses a settle status other than delivered or failed", async () => {
    const { chatId } = newChat();
    expect(await send("POST", `/tools/${chatId}/gate/settle`, { token: "t", key: "m:1", status: "silent" })).toEqual(
      bad(`"status" must be "delivered" or "failed".`),
    );
  });

  it("refuses a message whose chatId differs from the path, and a body that is not a v1 message", async () => {
    const { chatId, stub } = newChat();
    const other = userMessage("4039999", "1", "hi");
    expect(await send("POST", `/tools/${chatId}/gate/offer`, other)).toEqual(bad(`The body must be a v1 prompt message whose "chatId" is ${chatId}.`));
    expect(await send("POST", `/tools/${chatId}/gate/offer`, { chatId, v: 1 })).toEqual(
      bad("The body must be a v1 prompt message: { v: 1, key, chatId, timeZone, source, text, body, firedAt, … }."),
    );
    await expectGateFree(stub, chatId);
  });

  it("refuses a deliver without markdown", async () => {
    const { chatId } = newChat();
    expect(await send("POST", `/tools/${chatId}/deliver`, { key: "m:1" })).toEqual(bad(`"markdown" must be the reply's text.`));
  });

  it("are behind TOOLS_TOKEN", async () => {
    const { chatId } = newChat();
    const guarded = envWith({ TOOLS_TOKEN: "tools-secret-123" });
    for (const path of ["gate/offer", "gate/next", "gate/settle", "deliver"]) {
      const res = await send("POST", `/tools/${chatId}/${path}`, {}, guarded);
      expect(res.status, path).toBe(401);
    }
  });
});
