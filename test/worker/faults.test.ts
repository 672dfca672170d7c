/**
 * The fault suite's worker-tier part (issues 12 and 22): a Bot API that hangs and then recovers does not hold
 * up the chat's jobs and gets the message once; an alarm that runs twice for one instant claims once; a poison
 * prompt is retried alone while the rest of its batch is answered, then dead-lettered with one sentence; a
 * lost alarm comes back with the next call. A bad model day (issue 22, the fake model of test/stub/model-stub.ts):
 * a model down for minutes costs a waiting message 5 model calls and 5 typing actions at most, one turn of the
 * day's budget and one sentence; a turn that succeeds on a later try answers normally, with later messages
 * answered after it in order; an answer too big to keep is cut or refused, never tried again; a retried turn
 * resumes after its recorded steps, so its tool calls and a job's follow-up happen once, also when its consumer
 * died while they ran. Chat ids 8500000 up; the Bot API is the stub.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { ChatScheduler } from "../../src/chat/ChatScheduler";
import { GATE_LEASE_MS } from "../../src/chat/gate";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { chatWith, feed, fireCron, model, nextTry, userSays } from "./agent-helpers";
import {
  advanceTo,
  alarmOf,
  chatIds,
  clockOf,
  envWith,
  historyOf,
  lines,
  must,
  nextNoonUtc,
  queued,
  quietConsole,
  type Stub,
  setInstanceVars,
  spyQueue,
  transcript,
} from "./helpers";
import { delivered, postUpdate, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(8_500_000);
const bot = new TestBot("faults");

describe("a Bot API that hangs, then recovers", () => {
  it("fires the chat's due jobs on time while a send hangs, and delivers the waiting message once", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    await bot.script("sendMessage", [{ kind: "hang", ms: 6_000 }], chat.chatId);
    const job = await must(chat.stub.createJob(chat.chatId, { name: "Stretch", kind: "prompt", delay: "PT1M", text: "Stretch." }, "admin"));
    const due = Date.parse(job.nextRunAt!);
    // On the object's clock the job is due and the message waits to be sent; the runtime, on real time, sleeps.
    await chat.stub.testAdvanceClock(due - (await clockOf(chat.stub)));
    await must(chat.stub.deliver("m:first", "Before the outage."));

    // One alarm: the job is claimed and queued first, then the send hangs until the alarm's 5 s budget is spent.
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    const [fired] = (await queued(chat.stub)).map((s) => s.body as PromptMessage);
    expect(fired!.key).toBe(`${job.id}:${due}`);
    // Claimed at once (before the send began to hang), not seconds later.
    expect(Date.parse(fired!.firedAt) - due).toBeLessThan(1_000);
    expect(fired!.late).toBeUndefined();

    // Telegram is back: once the stall's backoff (at most 2 s) has passed, the next alarm sends the message;
    // the hung call never counted as delivered.
    await chat.stub.testAdvanceClock(2_000);
    expect(await runDurableObjectAlarm(chat.stub)).toBe(true);
    await expect
      .poll(async () => (await bot.sends(chat.chatId)).map((c) => [c.params.text, c.answered]), { timeout: 10_000 })
      .toEqual([
        ["Before the outage.", -1],
        ["Before the outage.", 200],
      ]);
  });
});

describe("an alarm that runs twice for one instant", () => {
  it("claims the due job once and sends one prompt", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Once", kind: "prompt", delay: "PT1M", text: "Once." }, "admin"));
    await stub.testAdvanceClock(Date.parse(job.nextRunAt!) - (await clockOf(stub)));
    await Promise.all([runDurableObjectAlarm(stub), runInDurableObject(stub, (instance: ChatScheduler) => instance.alarm())]);
    await runInDurableObject(stub, (instance: ChatScheduler) => instance.alarm());
    expect((await queued(stub)).map((s) => (s.body as PromptMessage).key)).toEqual([`${job.id}:${Date.parse(job.nextRunAt!)}`]);
    expect((await must(stub.jobRuns(chatId, job.id))).map((r) => r.runId)).toEqual([`${job.id}:${Date.parse(job.nextRunAt!)}`]);
  });
});

describe("a poison prompt", () => {
  it("is retried alone while the rest of its batch is answered, then dead-lettered with one sentence", async () => {
    const good = newChat();
    const poisoned = newChat();
    // The poison: every call to its chat's object throws (a bug, a corrupt state), whatever the attempt.
    const namespace = {
      getByName(name: string) {
        if (name === poisoned.chatId) {
          return new Proxy(
            {},
            {
              get: (_t, method) =>
                method === "deadLetter" ? (m: unknown) => poisoned.stub.deadLetter(m) : () => Promise.reject(new Error("the chat object is broken")),
            },
          );
        }
        return env.CHAT.getByName(name);
      },
    };
    const testEnv = { ...env, CHAT: namespace } as unknown as Env;
    const message = (chatId: string, n: number) => ({
      v: 1,
      key: `m:${n}`,
      chatId,
      timeZone: "UTC",
      source: "user",
      text: "hi",
      body: "hi",
      firedAt: new Date().toISOString(),
      messageId: String(n),
    });
    for (const { stub } of [good, poisoned]) await spyQueue(stub);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const fed = await feed([message(good.chatId, 1), message(poisoned.chatId, 2)], "prompts", testEnv);
    expect(fed.explicitAcks).toEqual([fed.ids[0]]);
    expect(fed.retryMessages.map((r) => r.msgId)).toEqual([fed.ids[1]]);
    expect((await transcript(good.stub, good.chatId)).map((e) => e.role)).toEqual(["prompt", "bot"]);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual(["prompts: m:2 failed (attempt 1); retrying"]);
    errors.mockRestore();

    // The queue gives up on it: the dead-letter consumer acknowledges it and the chat gets one sentence.
    const dead = await feed([message(poisoned.chatId, 2)], "prompts-dlq", testEnv);
    expect(dead.explicitAcks).toEqual(dead.ids);
    expect((await transcript(poisoned.stub, poisoned.chatId)).map((e) => e.text)).toEqual([
      "⚠️ I could not answer your message after several tries; please send it again.",
    ]);
  });
});

describe("a lost alarm", () => {
  it("is armed again by the next call to the chat", async () => {
    const { chatId, stub } = newChat();
    const job = await must(stub.createJob(chatId, { name: "Later", kind: "prompt", delay: "PT1H", text: "Later." }, "admin"));
    const alarm = () => runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(await alarm()).toBe(Date.parse(job.nextRunAt!));
    await runInDurableObject(stub, (_instance, state) => state.storage.deleteAlarm());
    expect(await alarm()).toBeNull();
    await must(stub.getSettings(chatId));
    expect(await alarm()).toBe(Date.parse(job.nextRunAt!));
  });
});

// ── A bad model day (issue 22) ─────────────────────────────────────────────────────────────────────────

const GIVE_UP = "I couldn't reach the model; please try again later.";
/** The waits between tries (docs/agent.md): about 15 s, 1 min, 3 min and 6 min, ±10%. */
const WAITS = [15_000, 60_000, 180_000, 360_000];
const bots = (entries: { role: string; text: string }[]) => entries.filter((e) => e.role === "bot").map((e) => e.text);

/** Feeds `message` and returns the object's clock around it (the instant a failed try is scheduled from). */
async function feedTimed(stub: Stub, message: unknown, testEnv: Env): Promise<{ t0: number; t1: number }> {
  const t0 = await clockOf(stub);
  const fed = await feed([message], "prompts", testEnv);
  // The queue message is done with: the chat's object, not the queue, brings a failed try's next one.
  expect(fed.explicitAcks).toEqual(fed.ids);
  return { t0, t1: await clockOf(stub) };
}

describe("a model that is down for minutes", () => {
  it("costs a waiting message 5 model calls and 5 typing actions, tried after about 15 s, 1 min, 3 min and 6 min, one turn of the day's budget, and one sentence", async () => {
    const m = model({ LLM_MAX_TURNS_PER_DAY: "2" });
    const chat = await telegramChat(bot, newChat().chatId);
    // The day's turns are counted in the chat's local day (UTC here) on its clock, which the tries move on by
    // some 10 minutes: started near midnight, the later messages would count against a new day's budget.
    await advanceTo(chat.stub, nextNoonUtc(await clockOf(chat.stub)));
    await setInstanceVars(chat.stub, m.vars);
    const testEnv = envWith({ ...bot.vars([chat.chatId]), ...m.vars });
    await m.script(...Array.from({ length: 5 }, () => ({ kind: "error" as const, status: 500 })));
    const errors = quietConsole("error");
    expect((await postUpdate(testEnv, textUpdate(chat.chatId, "are you there?"))).status).toBe(200);
    const [message] = chat.sent!.map((s) => s.body as PromptMessage);

    let window = await feedTimed(chat.stub, message, testEnv);
    for (const wait of WAITS) {
      // Armed for the next try alone, about `wait` after the failed one; nothing before it re-sends the prompt.
      const at = await alarmOf(chat.stub);
      expect(at).toBeGreaterThanOrEqual(window.t0 + wait * 0.9);
      expect(at).toBeLessThanOrEqual(window.t1 + wait * 1.1);
      const before = (await m.requests()).length;
      expect(await feed([message], "prompts", testEnv, 2)).toMatchObject({ retryMessages: [] }); // a stray copy: no model call
      expect(await m.requests()).toHaveLength(before);
      const { sent } = await nextTry(chat.stub);
      expect(sent).toEqual([message]);
      // Sent once: the gate and the run are held for this try plus their lease, and the alarm waits for that.
      expect(await alarmOf(chat.stub)).toBe(at! + GATE_LEASE_MS);
      window = await feedTimed(chat.stub, sent[0], testEnv);
    }
    expect(await m.requests()).toHaveLength(5);
    expect((await bot.calls({ chatId: chat.chatId, method: "sendChatAction" })).map((c) => c.params.action)).toEqual(Array(5).fill("typing"));
    expect(bots(await transcript(chat.stub, chat.chatId))).toEqual([GIVE_UP]);
    expect((await delivered(bot, chat, 1)).map((c) => c.params.text)).toEqual([GIVE_UP]);
    expect(lines(errors).map((line) => line.replace(/; the next at .*$/, ""))).toEqual([
      ...[1, 2, 3, 4].map((n) => `prompts: ${message!.key} try ${n} failed (the model answered 500: error 500)`),
      `prompts: ${message!.key} failed 5 times (the model answered 500: error 500); the chat was told`,
    ]);
    expect(await alarmOf(chat.stub)).toBeNull();

    // The five tries were one turn of the day's two: the next message is answered, the one after is over.
    await m.script({ kind: "text", content: "I am back." });
    for (const text of ["hello?", "and now?"]) {
      const before = chat.sent!.length;
      expect((await postUpdate(testEnv, textUpdate(chat.chatId, text))).status).toBe(200);
      await feed([chat.sent![before]!.body], "prompts", testEnv);
    }
    expect(await m.requests()).toHaveLength(6);
    expect(bots(await transcript(chat.stub, chat.chatId))).toEqual([
      GIVE_UP,
      "I am back.",
      "⚠️ This chat has used its 2 model turns for today, so I will answer again tomorrow. Your scheduled jobs keep running. (The bot's owner can raise LLM_MAX_TURNS_PER_DAY.)",
    ]);
  });

  it("answers a job's turn normally on its third try, its run held in flight meanwhile and settled once", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    await m.script({ kind: "error", status: 500 }, { kind: "error", status: 503 }, { kind: "text", content: "Your summary: all quiet." });
    const { job, message } = await fireCron(stub, chatId, "Summarise my inbox.");
    quietConsole("error");
    await feed([message], "prompts", m.env);
    for (let k = 0; k < 2; k++) {
      expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: true });
      expect((await historyOf(stub, chatId, job.id)).map((r) => [r.state, r.status])).toEqual([["dispatched", null]]);
      await feed((await nextTry(stub)).sent, "prompts", m.env);
    }
    expect(await m.requests()).toHaveLength(3);
    expect(bots(await transcript(stub, chatId))).toEqual(["Your summary: all quiet."]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ running: false, lastResult: { status: "delivered" } });
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.state, r.status])).toEqual([[message.key, "settled", "delivered"]]);
  });

  it("keeps later messages of the chat waiting behind a turn between its tries, and answers them after it, in order", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    await m.script(
      { kind: "error", status: 502 },
      { kind: "text", content: "Answer to one." },
      { kind: "text", content: "Answer to two." },
      { kind: "text", content: "Answer to three." },
    );
    quietConsole("error");
    const one = await userSays(stub, chatId, "one");
    await feed([one], "prompts", m.env);
    // Two more while the first waits for its next try: stored behind it; the model is not called.
    for (const text of ["two", "three"]) {
      const fed = await feed([await userSays(stub, chatId, text)], "prompts", m.env);
      expect(fed.explicitAcks).toEqual(fed.ids);
    }
    expect(await m.requests()).toHaveLength(1);
    expect(bots(await transcript(stub, chatId))).toEqual([]);

    await feed((await nextTry(stub)).sent, "prompts", m.env);
    expect(await m.requests()).toHaveLength(4);
    const entries = await transcript(stub, chatId);
    expect(entries.filter((e) => e.role !== "user").map((e) => [e.role, e.text.split("\n").at(-1)])).toEqual([
      ["prompt", "one"],
      ["bot", "Answer to one."],
      ["prompt", "two"],
      ["bot", "Answer to two."],
      ["prompt", "three"],
      ["bot", "Answer to three."],
    ]);
    expect(await alarmOf(stub)).toBeNull();
  });
});

describe("a job cancelled while its turn waits for its next try", () => {
  it("frees the gate when that try comes: the messages waiting behind it are answered", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    await m.script({ kind: "error", status: 500 }, { kind: "text", content: "Hello." });
    quietConsole("error");
    const { job, message } = await fireCron(stub, chatId, "Summarise my inbox.");
    await feed([message], "prompts", m.env);
    await must(stub.cancelJob(chatId, job.id));
    const hi = await userSays(stub, chatId, "hi");
    expect((await feed([hi], "prompts", m.env)).explicitAcks).toHaveLength(1);
    const { sent } = await nextTry(stub);
    expect(sent).toEqual([message]);
    // Its run is gone: nothing runs, and the gate goes to the message behind it, sent again at once.
    const before = (await queued(stub)).length;
    await feed(sent, "prompts", m.env);
    const resent = (await queued(stub)).slice(before).map((q) => q.body);
    expect(resent).toEqual([hi]);
    await feed(resent, "prompts", m.env);
    expect(await m.requests()).toHaveLength(2);
    expect(bots(await transcript(stub, chatId))).toEqual(["Hello."]);
  });
});

describe("an answer the chat cannot keep as it is", () => {
  it("cuts a reply over 128,000 characters with a marked end, and delivers it at once: no second try", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    await m.script({ kind: "text", content: "A".repeat(200_000) });
    const fed = await feed([await userSays(stub, chatId, "say a lot")], "prompts", m.env);
    expect(fed.explicitAcks).toEqual(fed.ids);
    const [reply] = bots(await transcript(stub, chatId));
    const mark = "\n\n…(cut here: the reply was longer than 128,000 characters)";
    expect(reply).toHaveLength(128_000);
    expect(reply!.slice(-80)).toBe(("A".repeat(80) + mark).slice(-80));
    expect(reply === "A".repeat(128_000 - mark.length) + mark).toBe(true);
    expect(await m.requests()).toHaveLength(1);
    expect(await alarmOf(stub)).toBeNull();
  });

  it("answers calls beyond 8 a step, a name over 100 characters and arguments over 16 KB as refused, keeps 4 KB of a tool entry, and goes on", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    const longName = `schedule_${"x".repeat(100)}`;
    const body = "b".repeat(10_000);
    await m.script(
      {
        kind: "tools",
        calls: [
          { name: longName, arguments: {} },
          { name: "memory_create", arguments: { title: "Huge", body: "h".repeat(17_000) } },
          { name: "memory_create", arguments: { title: "Notes", body } },
          ...Array.from({ length: 7 }, () => ({ name: "schedule_list", arguments: {} })),
        ],
      },
      { kind: "text", content: "Done, with what I could." },
    );
    const fed = await feed([await userSays(stub, chatId, "do many things")], "prompts", m.env);
    expect(fed.explicitAcks).toEqual(fed.ids);
    const [, second] = await m.requests();
    const answers = second!.messages.filter((x) => x.role === "tool").map((x) => JSON.parse(x.content!) as { ok: boolean; text: string });
    expect(answers.map((a) => [a.ok, a.ok ? "" : a.text])).toEqual([
      [false, "Refused: no tool has a name over 100 characters; call one of the tools you were given, by its name."],
      [false, "Refused: the arguments are over 16 KB; send shorter ones (a job's text is at most 4,000 characters)."],
      [true, ""],
      ...Array.from({ length: 5 }, () => [true, ""]),
      ...Array.from({ length: 2 }, () => [
        false,
        "Refused: at most 8 tool calls run in one step; make this call again in the next step if it is still needed.",
      ]),
    ]);
    // The conversation the model is sent back holds every call it made, under the names and arguments kept.
    const calls = second!.messages.find((x) => x.role === "assistant")!.tool_calls!.map((c) => [c.function.name, c.function.arguments.length]);
    expect(calls.slice(0, 3)).toEqual([
      [longName.slice(0, 100), 2],
      ["memory_create", 2],
      ["memory_create", JSON.stringify({ title: "Notes", body }).length],
    ]);
    const records = await must(stub.listMemory(chatId));
    expect(records.map((r) => r.title)).toEqual(["Notes"]);

    const entries = await transcript(stub, chatId);
    const tools = entries.filter((e) => e.role === "tool");
    expect(tools).toHaveLength(10);
    expect(tools[0]!.text).toBe(
      `${longName.slice(0, 100)} {}\n→ not ok: Refused: no tool has a name over 100 characters; call one of the tools you were given, by its name.`,
    );
    const [args] = tools[2]!.text.split("\n→ ");
    const mark = "…(cut here: over 4 KB)";
    expect(args!.startsWith('memory_create {"title":"Notes","body":"bbb')).toBe(true);
    expect(args!.endsWith(mark)).toBe(true);
    expect(new TextEncoder().encode(args!.slice("memory_create ".length)).byteLength).toBeLessThanOrEqual(4096);
    expect(bots(entries)).toEqual(["Done, with what I could."]);
    expect(await m.requests()).toHaveLength(2);
  });
});

/**
 * The test env whose chat stubs fail, as a consumer that died would leave them, on the calls `dies` picks:
 * the RPC is not made and rejects. Every other call goes to the real object.
 */
function dyingEnv(testEnv: Env, dies: (method: string, args: unknown[]) => boolean): Env {
  const namespace = {
    getByName(name: string) {
      const real = env.CHAT.getByName(name) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      return new Proxy(
        {},
        {
          get:
            (_target, method: string) =>
            (...args: unknown[]) =>
              dies(method, args) ? Promise.reject(new Error(`the consumer died before ${method}`)) : real[method]!(...args),
        },
      );
    },
  };
  return { ...testEnv, CHAT: namespace } as unknown as Env;
}

describe("a turn tried again", () => {
  it("after a tool call resumes with its result: one job, and the model sent the conversation it had reached", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    const create = { name: "Dup check", kind: "prompt", delay: "PT1H", text: "Check for duplicates." };
    await m.script(
      { kind: "tools", calls: [{ name: "schedule_create", arguments: create }] },
      { kind: "error", status: 500 },
      { kind: "text", content: "Scheduled." },
    );
    quietConsole("error");
    await feed([await userSays(stub, chatId, "check for duplicates in an hour")], "prompts", m.env);
    await feed((await nextTry(stub)).sent, "prompts", m.env);

    const jobs = (await must(stub.listJobs(chatId, {}))).jobs;
    expect(jobs.map((j) => j.name)).toEqual(["Dup check"]);
    const [, failed, resumed] = await m.requests();
    // The try after the failure asked the model exactly what the failed call had asked.
    expect(resumed!.messages).toEqual(failed!.messages);
    expect(resumed!.messages.slice(-2).map((x) => x.role)).toEqual(["assistant", "tool"]);
    expect(resumed!.messages.at(-2)!.tool_calls!.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([["schedule_create", create]]);
    expect(JSON.parse(resumed!.messages.at(-1)!.content!)).toMatchObject({ ok: true, data: { job: { id: jobs[0]!.id, name: "Dup check" } } });
    const entries = await transcript(stub, chatId);
    expect(entries.map((e) => e.role)).toEqual(["user", "prompt", "tool", "bot"]);
    expect(entries[2]!.text.startsWith(`schedule_create ${JSON.stringify(create)}\n→ ok: `)).toBe(true);
    expect(bots(entries)).toEqual(["Scheduled."]);
  });

  it("of a job after its follow-up makes no second follow-up, whatever the model asks", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    const followUp = { name: "Follow up", kind: "prompt", delay: "PT1H", text: "Check again." };
    await m.script(
      { kind: "tools", calls: [{ name: "schedule_create", arguments: followUp }] },
      { kind: "error", status: 503 },
      { kind: "tools", calls: [{ name: "schedule_create", arguments: followUp }] },
      { kind: "text", content: "One follow-up is set." },
    );
    const { message } = await fireCron(stub, chatId, "Check the invoice.");
    quietConsole("error");
    await feed([message], "prompts", m.env);
    await feed((await nextTry(stub)).sent, "prompts", m.env);

    const jobs = (await must(stub.listJobs(chatId, {}))).jobs;
    expect(jobs.map((j) => [j.name, j.createdBy])).toEqual([
      ["Daily", "admin"],
      ["Follow up", "job"],
    ]);
    const last = (await m.requests()).at(-1)!;
    expect(JSON.parse(last.messages.at(-1)!.content!)).toEqual({
      ok: false,
      text: "This turn may not create another job: a scheduled run creates at most one follow-up, and a follow-up's own run creates none.",
    });
    expect((await transcript(stub, chatId)).filter((e) => e.role === "tool").map((e) => e.text.split("\n")[1]!.slice(0, 8))).toEqual(["→ ok: Cr", "→ not ok"]);
  });

  it("whose consumer died while its tools ran runs none of them again: the model is told the call may have happened", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    const create = { name: "Once only", kind: "prompt", delay: "PT1H", text: "Once." };
    await m.script(
      { kind: "tools", calls: [{ name: "schedule_create", arguments: create }] },
      { kind: "text", content: "I may have set it; here is the list." },
    );
    const message = await userSays(stub, chatId, "remind me once");
    const errors = quietConsole("error");
    // The consumer dies after the tool ran: its results are never recorded, and it cannot report the try.
    const dying = dyingEnv(m.env, (method, args) => (method === "gateStep" && "results" in (args[2] as object)) || method === "gateRetry");
    const t0 = await clockOf(stub);
    const fed = await feed([message], "prompts", dying);
    expect(fed.retryMessages.map((r) => r.msgId)).toEqual(fed.ids);
    expect(lines(errors)).toEqual([`prompts: ${message.key} failed (attempt 1); retrying Error: the consumer died before gateRetry`]);
    // The gate is held for the turn until its lease runs out (nothing re-sends it before) …
    expect(await alarmOf(stub)).toBeGreaterThanOrEqual(t0 + GATE_LEASE_MS);
    // … but the queue's own copy (its second delivery) takes the turn over at once and resumes it.
    await feed([message], "prompts", m.env, 2);

    expect((await must(stub.listJobs(chatId, {}))).jobs.map((j) => j.name)).toEqual(["Once only"]);
    const [, resumed] = await m.requests();
    const doubt =
      "This call's result was not recorded: the turn was interrupted while its tools ran, so it may or may not have happened. Check (for example with schedule_list or memory_list) before you do it again.";
    expect(JSON.parse(resumed!.messages.at(-1)!.content!)).toEqual({ ok: false, text: doubt });
    const entries = await transcript(stub, chatId);
    expect(entries.filter((e) => e.role === "tool").map((e) => e.text)).toEqual([`schedule_create ${JSON.stringify(create)}\n→ not ok: ${doubt}`]);
    expect(bots(entries)).toEqual(["I may have set it; here is the list."]);
  });

  it("whose consumer dies in every try is given up after the fifth, with the one sentence and no sixth model call", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    await m.script(...Array.from({ length: 5 }, () => ({ kind: "error" as const, status: 500 })));
    const errors = quietConsole("error");
    // Each try fails, and its consumer dies before it can say so: only the gate's lease tells.
    const dying = dyingEnv(m.env, (method) => method === "gateRetry");
    let message: unknown = await userSays(stub, chatId, "hello?");
    for (let tries = 1; tries <= 5; tries++) {
      expect((await feed([message], "prompts", dying)).retryMessages).toHaveLength(1);
      expect(await m.requests()).toHaveLength(tries);
      await advanceTo(stub, (await alarmOf(stub))!);
      const before = (await queued(stub)).length;
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      [message] = (await queued(stub)).slice(before).map((q) => q.body);
    }
    await feed([message], "prompts", m.env);
    expect(await m.requests()).toHaveLength(5);
    expect(bots(await transcript(stub, chatId))).toEqual([GIVE_UP]);
    expect(lines(errors)).toHaveLength(5);
  });

  it("whose consumer died is handed over with what it had when another message took the gate first", async () => {
    const m = model();
    const { chatId, stub } = await chatWith(newChat, m.vars);
    await m.script(
      { kind: "error", status: 500 },
      { kind: "text", content: "Answer to the later one." },
      { kind: "text", content: "Answer to the first one." },
    );
    quietConsole("error");
    const first = await userSays(stub, chatId, "first");
    await feed(
      [first],
      "prompts",
      dyingEnv(m.env, (method) => method === "gateRetry"),
    );
    // Its lease runs out: it goes back first in line, tried once, and is sent again.
    await advanceTo(stub, (await alarmOf(stub))!);
    const before = (await queued(stub)).length;
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const resent = (await queued(stub)).slice(before).map((q) => q.body);
    expect(resent).toEqual([first]);
    // A later message reaches the free gate before that copy does: the holder is handed the first one next.
    await feed([await userSays(stub, chatId, "later")], "prompts", m.env);
    const entries = await transcript(stub, chatId);
    const prompts = entries.filter((e) => e.role === "prompt").map((e) => e.text);
    expect(prompts.map((p) => p.split("\n")[1])).toEqual(["later", "first"]);
    expect(bots(entries)).toEqual(["Answer to the later one.", "Answer to the first one."]);
    // It resumed under the header of its first try, and the copy sent again finds it answered.
    expect((await m.requests())[2]!.messages.at(-1)!.content).toBe((await m.requests())[0]!.messages.at(-1)!.content);
    expect(prompts[1]).toBe((await m.requests())[0]!.messages.at(-1)!.content);
    expect((await feed(resent, "prompts", m.env)).explicitAcks).toHaveLength(1);
    expect(await m.requests()).toHaveLength(3);
  });
});
