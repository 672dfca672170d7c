/**
 * Missed runs and a model per job in workerd (docs/time.md#missed-runs, docs/agent.md#models, issue 35). Time moves
 * through the object's own clock (`advanceTo`), then `runDurableObjectAlarm`: the bot was offline while an hourly
 * job's occurrences went by. Each policy is read as a client sees it (history, queue, transcript, the job), and the
 * ask message's buttons are pressed through `POST …/messages { press }` in transcript mode. A job's own model is what
 * the fake model server is called with; once it is no longer listed, the chat's runs it and the reply says so.
 * Chat ids 9830000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { Job } from "../../src/schemas/jobs";
import { chatWith, feed, model } from "./agent-helpers";
import {
  advanceTo,
  chatIds,
  clockOf,
  HOUR,
  historyOf,
  must,
  nextNoonUtc,
  queued,
  quietConsole,
  type Stub,
  send,
  setInstanceVars,
  spyQueue,
  transcript,
} from "./helpers";

const newChat = chatIds(9_830_000);

afterEach(() => {
  vi.restoreAllMocks();
});

/** An hourly prompt job with `missed` (and what else `over` sets), in a chat with a queue spy. */
async function hourly(over: Record<string, unknown> = {}): Promise<{ chatId: string; stub: Stub; job: Job; due: number }> {
  const { chatId, stub } = newChat();
  // 08:00 UTC, ahead: its runs and the 3½ hours after them fall on one day in Berlin, whatever the hour the suite runs at
  // (a message names a time of another day with its date).
  await advanceTo(stub, nextNoonUtc(await clockOf(stub)) + 20 * HOUR);
  await spyQueue(stub);
  await must(stub.setTimeZone(chatId, "Europe/Berlin"));
  const job = await must(stub.createJob(chatId, { name: "Log digest", kind: "prompt", cron: "0 * * * *", text: "Digest the logs", ...over }, "admin"));
  return { chatId, stub, job, due: Date.parse(job.nextRunAt!) };
}

const sentKeys = async (stub: Stub) => (await queued(stub)).map((m) => (m.body as PromptMessage).key);
const runsOf = async (stub: Stub, chatId: string, id: string) =>
  (await historyOf(stub, chatId, id)).map((r) => `${(r.dueAt as string).slice(11, 16)} ${r.status ?? r.state} ${r.detail ?? ""}`.trim()).sort();
const botEntries = async (stub: Stub, chatId: string) => (await transcript(stub, chatId)).filter((e) => e.role === "bot");
const press = (chatId: string, data: string) => send("POST", `/admin/chats/${chatId}/messages`, { press: data });

describe("an hourly job back after 3½ hours offline", () => {
  it("skip: runs none, records each missed occurrence skipped (missed), and goes on at the next hour", async () => {
    const { chatId, stub, job, due } = await hourly({ missed: "skip" });
    quietConsole("log");
    await advanceTo(stub, due + 3.5 * HOUR);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await sentKeys(stub)).toEqual([]);
    const history = await historyOf(stub, chatId, job.id);
    expect(history.map((r) => [r.runId, r.status, r.detail])).toEqual([3, 2, 1, 0].map((h) => [`${job.id}:${due + h * HOUR}`, "skipped", "missed"]));
    expect((await must(stub.getJob(chatId, job.id))).nextRunAt).toBe(new Date(due + 4 * HOUR).toISOString());
  });

  it("all: runs each in order, the next when the one before settled, none skipped as still running", async () => {
    const { chatId, stub, job, due } = await hourly({ missed: "all" });
    quietConsole("log");
    await advanceTo(stub, due + 2.5 * HOUR);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await sentKeys(stub)).toEqual([`${job.id}:${due}`]);
    // Another alarm while it is in flight starts nothing and records nothing.
    await runDurableObjectAlarm(stub);
    expect(await sentKeys(stub)).toEqual([`${job.id}:${due}`]);
    expect(await historyOf(stub, chatId, job.id)).toHaveLength(1);
    for (const [i, dueAt] of [due, due + HOUR, due + 2 * HOUR].entries()) {
      const message = (await queued(stub))[i]!.body as PromptMessage;
      expect([message.key, message.late, message.text.split("\n")[1]]).toEqual([
        `${job.id}:${dueAt}`,
        true,
        `This was due at ${new Date(dueAt).toLocaleString("en-GB", { timeZone: "Europe/Berlin", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }).replace(",", "")}; the bot was offline.`,
      ]);
      const fed = await feed([message]);
      expect(fed.retryMessages).toEqual([]);
      await runDurableObjectAlarm(stub);
    }
    expect(await sentKeys(stub)).toEqual([0, 1, 2].map((h) => `${job.id}:${due + h * HOUR}`));
    expect(await runsOf(stub, chatId, job.id)).toEqual([0, 1, 2].map((h) => `${new Date(due + h * HOUR).toISOString().slice(11, 16)} delivered`).sort());
    expect((await must(stub.getJob(chatId, job.id))).nextRunAt).toBe(new Date(due + 3 * HOUR).toISOString());
  });

  it("ask: one message naming the missed times with Run now and Skip; Run now runs the latest once, late, and answers once", async () => {
    const { chatId, stub, job, due } = await hourly({ missed: "ask" });
    quietConsole("log");
    await advanceTo(stub, due + 3.5 * HOUR);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await sentKeys(stub)).toEqual([]);
    const [asked] = await botEntries(stub, chatId);
    const hm = (h: number) => new Date(due + h * HOUR).toLocaleTimeString("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" });
    expect(asked!.text).toBe(
      `⏰ **Log digest** (\`${job.id}\`) missed 4 runs while the bot was offline: ${hm(0)}, ${hm(1)}, ${hm(2)} and ${hm(3)}. Run it now?`,
    );
    const [[runNow, skip]] = asked!.buttons as [[{ text: string; data: string }, { text: string; data: string }]];
    expect([runNow.text, skip.text]).toEqual(["Run now", "Skip"]);
    expect(await press(chatId, runNow.data)).toEqual({ status: 200, body: { answer: `Running ${job.id} (Log digest) now.` } });
    const [message] = (await queued(stub)).map((m) => m.body as PromptMessage);
    expect([message!.key, message!.late, message!.missed, message!.text.split("\n")[1]]).toEqual([
      `${job.id}:${due + 3 * HOUR}`,
      true,
      4,
      `4 runs were missed while the bot was offline; this is the latest (due ${hm(3)}).`,
    ]);
    // The message's buttons are its answer now; pressed again, nothing happens.
    expect((await botEntries(stub, chatId))[0]!.buttons).toEqual([[{ text: "▶️ Run now", data: `a:${job.id}:${due + 3 * HOUR}` }]]);
    expect(await press(chatId, skip.data)).toEqual({ status: 200, body: { answer: "This was answered already." } });
    expect(await queued(stub)).toHaveLength(1);
    expect((await must(stub.getJob(chatId, job.id))).nextRunAt).toBe(new Date(due + 4 * HOUR).toISOString());
  });

  it("ask, then Skip: each recorded skipped (missed), no turn", async () => {
    const { chatId, stub, job, due } = await hourly({ missed: "ask" });
    quietConsole("log");
    await advanceTo(stub, due + 1.5 * HOUR);
    await runDurableObjectAlarm(stub);
    const [asked] = await botEntries(stub, chatId);
    const skip = (asked!.buttons as { data: string }[][])[0]![1]!;
    expect(await press(chatId, skip.data)).toEqual({ status: 200, body: { answer: "Skipped 2 missed runs." } });
    expect(await sentKeys(stub)).toEqual([]);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.status, r.detail])).toEqual([
      [`${job.id}:${due + HOUR}`, "skipped", "missed"],
      [`${job.id}:${due}`, "skipped", "missed"],
    ]);
  });
});

describe("a one-off the bot missed", () => {
  it("skip: is deleted, and the chat is told in one line", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    quietConsole("log");
    const job = await must(stub.createJob(chatId, { name: "Call the dentist", kind: "prompt", delay: "PT1H", text: "Call", missed: "skip" }, "admin"));
    await advanceTo(stub, Date.parse(job.nextRunAt!) + 2 * HOUR);
    await runDurableObjectAlarm(stub);
    expect(await sentKeys(stub)).toEqual([]);
    expect((await stub.getJob(chatId, job.id)).ok).toBe(false);
    const due = new Date(job.nextRunAt!).toISOString().slice(11, 16);
    expect((await botEntries(stub, chatId)).map((e) => e.text)).toEqual([
      `Skipped **Call the dentist** (\`${job.id}\`): it was due at ${due} while the bot was offline.`,
    ]);
  });

  it("ask: is paused until answered; Run now runs it late and it is gone once the run settles", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    quietConsole("log");
    const job = await must(stub.createJob(chatId, { name: "Call the dentist", kind: "prompt", delay: "PT1H", text: "Call", missed: "ask" }, "admin"));
    await advanceTo(stub, Date.parse(job.nextRunAt!) + 2 * HOUR);
    await runDurableObjectAlarm(stub);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null });
    const [asked] = await botEntries(stub, chatId);
    expect(asked!.text).toMatch(/^⏰ \*\*Call the dentist\*\* \(`\w{5}`\) was due at \d\d:\d\d while the bot was offline\. Run it now\?$/);
    await press(chatId, (asked!.buttons as { data: string }[][])[0]![0]!.data);
    const [message] = (await queued(stub)).map((m) => m.body as PromptMessage);
    expect([message!.key, message!.late]).toEqual([`${job.id}:${Date.parse(job.nextRunAt!)}`, true]);
    await feed([message]);
    expect((await stub.getJob(chatId, job.id)).ok).toBe(false);
  });
});

describe("/edit <id> missed", () => {
  it("is refused for a one-off with all, and sets a recurring job's policy (API)", async () => {
    const { chatId, job } = await hourly();
    const res = await send("PATCH", `/admin/chats/${chatId}/jobs/${job.id}`, { missed: "ask", grace: "PT10M" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ job: { missed: "ask", grace: "PT10M" } });
    const oneOff = await send("POST", `/admin/chats/${chatId}/jobs`, { name: "Once", kind: "prompt", delay: "PT1H", text: "x", missed: "all" });
    expect(oneOff).toMatchObject({
      status: 400,
      body: { error: { message: `"missed": "all" is for recurring jobs: a one-off runs once; use "once", "skip" or "ask".` } },
    });
  });
});

describe("a job's own model", () => {
  it("runs its turns on it; once it is no longer listed, on the chat's model, and the reply says so first", async () => {
    const m = model();
    const big = `${m.name}-big`;
    const vars = { ...m.vars, LLM_MODELS: big };
    const { chatId, stub } = await chatWith(newChat, vars);
    const job = await must(stub.createJob(chatId, { name: "Digest", kind: "prompt", cron: "0 8 * * *", text: "Digest", model: big }, "admin"));
    expect(job.model).toBe(big);
    // Scripted for the chat's model: the job's own, unscripted, answers "(nothing scripted)".
    await m.script({ kind: "text", content: "Short digest." });
    await advanceTo(stub, Date.parse(job.nextRunAt!));
    await runDurableObjectAlarm(stub);
    await feed([(await queued(stub))[0]!.body], "prompts", m.env);
    const requests = await fetch(`${m.vars.LLM_BASE_URL.replace(/\/v1$/, "")}/__stub/requests?model=${big}`).then(
      (r) => r.json() as Promise<{ requests: unknown[] }>,
    );
    expect(requests.requests).toHaveLength(1);
    expect(await m.requests()).toHaveLength(0);

    // The owner drops it from LLM_MODELS: the next run is the chat's model's, and says so.
    await setInstanceVars(stub, { ...m.vars, LLM_MODELS: "" });
    await advanceTo(stub, Date.parse(job.nextRunAt!) + 86_400_000);
    await runDurableObjectAlarm(stub);
    await feed([(await queued(stub))[1]!.body], "prompts", m.env);
    expect(await m.requests()).toHaveLength(1);
    const replies = (await botEntries(stub, chatId)).map((e) => e.text);
    expect(replies).toEqual(["(nothing scripted)", `(The model ${big} is no longer offered, so this ran on ${m.name}.)\n\nShort digest.`]);
  });

  it("is refused when not listed, and the chat's model is set with /model's route", async () => {
    const m = model({ LLM_MODELS: "alt-model" });
    const { chatId, stub } = await chatWith(newChat, m.vars);
    expect(await stub.createJob(chatId, { name: "X", kind: "prompt", cron: "0 8 * * *", text: "x", model: "gpt-5" }, "admin")).toEqual({
      ok: false,
      error: { code: "bad_request", message: `"gpt-5" is not one of this bot's models; choose ${m.name} or alt-model.` },
    });
    expect(await must(stub.setModel(chatId, "alt-model"))).toEqual({ model: "alt-model", effective: "alt-model", choices: [m.name, "alt-model"] });
    expect(await must(stub.getModel(chatId))).toEqual({ model: "alt-model", effective: "alt-model", choices: [m.name, "alt-model"] });
    expect(await must(stub.setModel(chatId, null))).toEqual({ model: null, effective: m.name, choices: [m.name, "alt-model"] });
  });
});
