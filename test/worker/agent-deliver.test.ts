/**
 * The chat's `deliver` and transcript over RPC (DESIGN §1, §7, issue 4): a key seen before is a no-op, the
 * roles and sources of entries, the outbox row written in the same transaction, the last 500 entries kept,
 * and the transcript's shape. Chat ids 4020000 up.
 */
import { describe, expect, it } from "vitest";
import {
  brief,
  chatIds,
  fireJob,
  must,
  spyQueue,
  setInstanceVars,
  sql,
  transcript,
  transcriptCount,
  type Entry,
} from "./agent-helpers";

const newChat = chatIds(4_020_000);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
// The API base is a closed local port: nothing here may reach the network.
const TELEGRAM = { TELEGRAM_BOT_TOKEN: "123456789:AAEabcdefghijklmnopqrstuvwxyz", TELEGRAM_WEBHOOK_SECRET: "hook-secret", TELEGRAM_API_BASE: "http://127.0.0.1:9" };

describe("deliver with a bot connected", () => {
  it("refuses a chat outside ALLOWED_USER_IDS and writes nothing", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    await setInstanceVars(stub, { ...TELEGRAM, ALLOWED_USER_IDS: "42" });
    expect(await stub.deliver("m:1", "Hello.")).toEqual({
      ok: false,
      error: { code: "bad_request", message: `Chat ${chatId} is not allowed to use this bot (ALLOWED_USER_IDS); nothing was delivered.` },
    });
    expect(await transcript(stub, chatId)).toEqual([]);
  });
});

type OutboxRow = { key: string; markdown: string; job_id: string | null; run_id: string | null };
const outboxOf = (stub: ReturnType<typeof newChat>["stub"]) => sql<OutboxRow>(stub, "SELECT key, markdown, job_id, run_id FROM outbox ORDER BY id");

describe("deliver", () => {
  it("writes one bot entry for a new key and nothing for a key seen before", async () => {
    const { chatId, stub } = newChat();
    const t0 = Date.now();
    expect(await must(stub.deliver("m:1", "First reply."))).toEqual({ delivered: true });
    const t1 = Date.now();
    expect(await must(stub.deliver("m:1", "Second reply."))).toEqual({ delivered: false });
    expect(await must(stub.deliver("m:1", "First reply.", { prompt: "[h]\nhi" }))).toEqual({ delivered: false });

    const entries = await transcript(stub, chatId);
    expect(entries).toHaveLength(1);
    const [entry] = entries as [Entry];
    expect(Object.keys(entry).sort()).toEqual(["at", "id", "role", "source", "text"]);
    expect(entry).toMatchObject({ role: "bot", source: "admin", text: "First reply." });
    expect(entry.id).toMatch(/^\d+$/);
    expect(entry.at).toMatch(ISO_INSTANT);
    expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(entry.at)).toBeLessThanOrEqual(t1);
  });

  it("records the prompt the agent saw before the reply, both with the job's ids and source job", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub, { cron: true });
    expect(await must(stub.deliver(runId, "Done.", { prompt: "[Mon 2026-01-05 09:00 UTC]\nDo it." }))).toEqual({ delivered: true });
    expect(brief(await transcript(stub, chatId))).toEqual([
      { role: "prompt", source: "job", text: "[Mon 2026-01-05 09:00 UTC]\nDo it.", jobId: job.id, runId },
      { role: "bot", source: "job", text: "Done.", jobId: job.id, runId },
    ]);
  });

  it("gives a Telegram update's key the source telegram", async () => {
    const { chatId, stub } = newChat();
    await must(stub.deliver("u:42", "Hi."));
    expect(brief(await transcript(stub, chatId))).toEqual([{ role: "bot", source: "telegram", text: "Hi." }]);
  });

  it("refuses an empty reply with a sentence and writes nothing", async () => {
    const { chatId, stub } = newChat();
    const refused = (await stub.deliver("m:1", "")) as { ok: boolean; error?: { code: string; message: string } };
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe("bad_request");
    expect(refused.error?.message).toMatch(/^[A-Z"].*\.$/);
    expect(await transcript(stub, chatId)).toEqual([]);
    // The key was not used up: a later delivery with text goes through.
    expect(await must(stub.deliver("m:1", "Now with text."))).toEqual({ delivered: true });
  });

  it("with a bot connected writes one outbox row per new key, in the same delivery, none for a repeat", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId)); // bound to its chat, so the rows have somewhere to go
    await spyQueue(stub);
    await setInstanceVars(stub, { ...TELEGRAM, ALLOWED_USER_IDS: chatId });
    await must(stub.deliver("u:7", "Hello."));
    await must(stub.deliver("u:7", "Hello again."));
    await must(stub.deliver("u:8", "Bye."));
    expect(await outboxOf(stub)).toEqual([
      { key: "u:7", markdown: "Hello.", job_id: null, run_id: null },
      { key: "u:8", markdown: "Bye.", job_id: null, run_id: null },
    ]);
    expect(await transcriptCount(stub)).toBe(2);
  });

  it("with a bot connected, a job's reply's outbox row carries the job and run ids", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const { job, runId } = await fireJob(chatId, stub, { cron: true });
    await setInstanceVars(stub, { ...TELEGRAM, ALLOWED_USER_IDS: chatId });
    await must(stub.deliver(runId, "Done."));
    expect(await outboxOf(stub)).toEqual([{ key: runId, markdown: "Done.", job_id: job.id, run_id: runId }]);
  });

  it("in transcript mode leaves no outbox row behind: with no bot, the transcript entry is the delivery", async () => {
    const { chatId, stub } = newChat();
    await must(stub.deliver("m:1", "Hello."));
    expect(await outboxOf(stub)).toEqual([]);
    expect((await transcript(stub, chatId)).map((e) => [e.role, e.text])).toEqual([["bot", "Hello."]]);
  });
});

describe("the transcript", () => {
  it("keeps exactly the last 500 entries, oldest first", async () => {
    const { chatId, stub } = newChat();
    for (let i = 1; i <= 505; i++) await must(stub.deliver(`m:${i}`, `#${i}`));
    expect(await transcriptCount(stub)).toBe(500);
    const entries = await transcript(stub, chatId, 500);
    expect(entries.map((e) => e.text)).toEqual(Array.from({ length: 500 }, (_, i) => `#${i + 6}`));
    const ids = entries.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // A limit gives the newest entries, still oldest first.
    expect((await transcript(stub, chatId, 3)).map((e) => e.text)).toEqual(["#503", "#504", "#505"]);
  });

  it("of an unused chat is empty", async () => {
    const { chatId, stub } = newChat();
    expect(await must(stub.messages(chatId, 50))).toEqual({ chatId, messages: [] });
  });
});
