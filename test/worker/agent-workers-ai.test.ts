/**
 * The built-in agent on Workers AI (docs/agent.md#workers-ai, `LLM_PROVIDER=workers-ai`) with a fake `AI` binding
 * that records its calls, through the same turn loop as an OpenAI-compatible server: a user's words become the
 * job they meant, the calls named `<step>-<n>` in the conversation sent back; a job's turn keeps the job-turn rule;
 * a try that Workers AI could not answer is resumed after its recorded step by the chat's alarm, no tool run twice;
 * a refusal is one sentence; the day's budget; a job's own model from LLM_MODELS. And how the config and
 * `/healthz` read the provider with and without the binding. Chat ids 8880000 up.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { version } from "../../package.json";
import { DEFAULT_WORKERS_AI_MODEL } from "../../src/agent/workers-ai";
import { loadConfig } from "../../src/config";
import { TOOL_NAMES } from "../tool-names";
import { feed, fireCron, nextTry, userSays } from "./agent-helpers";
import { advanceTo, alarmOf, call, chatIds, clockOf, envWith, lines, must, nextNoonUtc, queued, quietConsole, spyQueue, transcript } from "./helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(8_880_000);

const NOTE =
  "The agent is echo: LLM_PROVIDER=workers-ai needs the AI binding, which only the configuration npm run deploy deploys declares " +
  "(wrangler has no local Workers AI); deploy with npm run deploy, or set LLM_BASE_URL to an OpenAI-compatible server instead.";

/** What the fake binding was asked: the model and the request. */
type Run = {
  model: string;
  inputs: {
    messages: {
      role: string;
      content: string;
      tool_calls?: { id: string; function: { name: string; arguments: string } }[];
      tool_call_id?: string;
      name?: string;
    }[];
    tools?: { type: string; function: { name: string } }[];
    max_tokens: number;
  };
};

/** A fake `AI` binding: answers `outputs` in turn (an Error is thrown), recording each call. */
function fakeAi(...outputs: unknown[]) {
  const runs: Run[] = [];
  return {
    runs,
    answer: (...more: unknown[]) => outputs.push(...more),
    run: async (model: string, inputs: Record<string, unknown>) => {
      runs.push({ model, inputs: structuredClone(inputs) as Run["inputs"] });
      const output = outputs.shift();
      if (output === undefined) throw new Error("the fake AI has no answer scripted");
      if (output instanceof Error) throw output;
      return output;
    },
  };
}
type FakeAi = ReturnType<typeof fakeAi>;

/** The env of the queue consumer with Workers AI: the vars and the binding. */
const aiEnv = (ai: FakeAi, vars: Record<string, string> = {}): Env => ({ ...envWith({ LLM_PROVIDER: "workers-ai", ...vars }), AI: ai }) as unknown as Env;

/** A chat whose object runs with the same vars and binding (as deployed), a queue spy, in Berlin. */
async function chatOnWorkersAi(ai: FakeAi, vars: Record<string, string> = {}) {
  const chat = newChat();
  await spyQueue(chat.stub);
  await runInDurableObject(chat.stub, (instance) => {
    const holder = instance as unknown as { env: Env };
    holder.env = { ...holder.env, LLM_PROVIDER: "workers-ai", ...vars, AI: ai } as unknown as Env;
  });
  await must(chat.stub.setTimeZone(chat.chatId, "Europe/Berlin"));
  return { ...chat, env: aiEnv(ai, vars) };
}

const botTexts = async (stub: Parameters<typeof transcript>[0], chatId: string) =>
  (await transcript(stub, chatId)).filter((e) => e.role === "bot").map((e) => e.text);

describe("the config and /healthz", () => {
  it("run the agent on Workers AI once the binding is there, on its default model, with LLM_MODELS to choose from", async () => {
    const ai = fakeAi();
    const agent = loadConfig(aiEnv(ai, { LLM_MODELS: "@cf/qwen/qwen3-30b-a3b-fp8" })).config.agent;
    expect(agent).toMatchObject({ kind: "llm", provider: "workers-ai", note: null, model: DEFAULT_WORKERS_AI_MODEL });
    expect(agent.models).toEqual([DEFAULT_WORKERS_AI_MODEL, "@cf/qwen/qwen3-30b-a3b-fp8"]);
    expect(loadConfig(aiEnv(ai, { LLM_MODEL: "@cf/zai-org/glm-4.7-flash" })).config.agent.models).toEqual(["@cf/zai-org/glm-4.7-flash"]);
    expect(loadConfig(aiEnv(ai, { AGENT: "echo" })).config.agent.kind).toBe("echo");

    const res = await call("/healthz", {}, aiEnv(ai));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, version, telegram: "off", runner: "off", agent: "llm", agentProvider: "workers-ai" });
  });

  it("say the agent is echo without the binding, and what to do, as a note rather than an error", async () => {
    const res = await call("/healthz", {}, envWith({ LLM_PROVIDER: "workers-ai" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, version, telegram: "off", runner: "off", agent: "echo", agentProvider: "workers-ai", agentNote: NOTE });
    // Asked for explicitly, the same.
    expect(loadConfig(envWith({ LLM_PROVIDER: "workers-ai", AGENT: "llm" })).config.agent).toMatchObject({ kind: "echo", note: NOTE });
    // AGENT=echo chose the echo: nothing to note.
    expect(await (await call("/healthz", {}, envWith({ LLM_PROVIDER: "workers-ai", AGENT: "echo" }))).json()).toEqual({
      ok: true,
      version,
      telegram: "off",
      runner: "off",
      agent: "echo",
      agentProvider: "workers-ai",
    });
  });

  it("list an unknown provider as an invalid var", async () => {
    const res = await call("/healthz", {}, envWith({ LLM_PROVIDER: "anthropic" }));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      ok: false,
      errors: ['LLM_PROVIDER must be openai (LLM_BASE_URL\'s server) or workers-ai (the AI binding); got "anthropic".'],
    });
  });
});

describe("a user's turn", () => {
  it("schedules what the user meant, the tool call named 0-1 in the conversation sent back", async () => {
    const ai = fakeAi(
      { response: null, tool_calls: [{ name: "schedule_create", arguments: { name: "Tea", kind: "prompt", delay: "PT1H", text: "Remind the user: tea." } }] },
      { response: "Done: in an hour I will remind you of the tea." },
    );
    const { chatId, stub, env } = await chatOnWorkersAi(ai);
    const fed = await feed([await userSays(stub, chatId, "remind me of the tea in an hour")], "prompts", env);
    expect(fed.explicitAcks).toEqual(fed.ids);

    const [job] = (await must(stub.listJobs(chatId, {}))).jobs;
    expect(job).toMatchObject({ name: "Tea", kind: "prompt", text: "Remind the user: tea.", createdBy: "agent" });
    const entries = await transcript(stub, chatId);
    expect(entries.map((e) => e.role)).toEqual(["user", "prompt", "tool", "bot"]);
    expect(entries[2]!.text).toMatch(/^schedule_create \{"name":"Tea","kind":"prompt","delay":"PT1H","text":"Remind the user: tea\."\}\n→ ok: /);
    expect(entries[3]!.text).toBe("Done: in an hour I will remind you of the tea.");

    // Both calls on the default model, with the tools and the longest answer; the second carries the call and its answer under 0-1.
    const [first, second] = ai.runs;
    expect(ai.runs.map((r) => r.model)).toEqual([DEFAULT_WORKERS_AI_MODEL, DEFAULT_WORKERS_AI_MODEL]);
    expect(first!.inputs.tools!.map((t) => t.function.name)).toEqual(TOOL_NAMES);
    expect(first!.inputs.max_tokens).toBe(4096);
    expect(first!.inputs.messages[0]!.role).toBe("system");
    expect(first!.inputs.messages.at(-1)).toEqual({ role: "user", content: entries[1]!.text });
    const [assistant, answer] = second!.inputs.messages.slice(-2);
    expect(assistant).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [
        {
          id: "0-1",
          type: "function",
          function: { name: "schedule_create", arguments: '{"name":"Tea","kind":"prompt","delay":"PT1H","text":"Remind the user: tea."}' },
        },
      ],
    });
    expect(answer).toMatchObject({ role: "tool", tool_call_id: "0-1", name: "schedule_create" });
    expect(JSON.parse(answer!.content)).toMatchObject({ ok: true, data: { job: { id: job!.id } } });
  });

  it("names each call of an OpenAI-shaped answer by its step and place, over the steps of the turn", async () => {
    const toolCall = (name: string, args: string) => ({ id: "call_same", type: "function", function: { name, arguments: args } });
    const ai = fakeAi(
      { choices: [{ message: { content: null, tool_calls: [toolCall("schedule_list", "{}"), toolCall("memory_list", "{}")] } }] },
      { choices: [{ message: { content: "", tool_calls: [toolCall("schedule_list", "{}")] } }] },
      { choices: [{ message: { content: "Nothing is planned." } }] },
    );
    const { chatId, stub, env } = await chatOnWorkersAi(ai);
    await feed([await userSays(stub, chatId, "what is planned?")], "prompts", env);
    const last = ai.runs[2]!.inputs.messages;
    expect(last.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.name])).toEqual([
      ["0-1", "schedule_list"],
      ["0-2", "memory_list"],
      ["1-1", "schedule_list"],
    ]);
    // Every call ran: the model's own repeated id is never seen.
    expect(last.filter((m) => m.role === "tool").map((m) => (JSON.parse(m.content) as { ok: boolean }).ok)).toEqual([true, true, true]);
    expect(await botTexts(stub, chatId)).toEqual(["Nothing is planned."]);
  });
});

describe("a job's turn", () => {
  it("may create one follow-up one-off and nothing else of the schedule", async () => {
    const ai = fakeAi(
      {
        response: "",
        tool_calls: [
          { name: "schedule_create", arguments: { name: "Spam", kind: "prompt", cron: "* * * * *", text: "Again!" } },
          { name: "schedule_create", arguments: { name: "Follow up", kind: "prompt", delay: "PT1H", text: "Check again." } },
        ],
      },
      { response: "I set one follow-up." },
    );
    const { chatId, stub, env } = await chatOnWorkersAi(ai);
    const { message } = await fireCron(stub, chatId, "Check the news.");
    await feed([message], "prompts", env);
    const replies = ai.runs[1]!.inputs.messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, (JSON.parse(m.content) as { ok: boolean }).ok]);
    expect(replies).toEqual([
      ["0-1", false],
      ["0-2", true],
    ]);
    expect((await must(stub.listJobs(chatId, {}))).jobs.map((j) => [j.name, (j as { createdBy?: string }).createdBy])).toEqual([
      ["Daily", "admin"],
      ["Follow up", "job"],
    ]);
    expect(await botTexts(stub, chatId)).toEqual(["I set one follow-up."]);
  });

  it("runs on the job's own model from LLM_MODELS", async () => {
    const own = "@cf/qwen/qwen3-30b-a3b-fp8";
    const ai = fakeAi({ response: "Weekly review: done." });
    const { chatId, stub, env } = await chatOnWorkersAi(ai, { LLM_MODELS: own });
    const job = await must(stub.createJob(chatId, { name: "Review", kind: "prompt", cron: "0 17 * * 5", text: "Review my week", model: own }, "admin"));
    await advanceTo(stub, Date.parse(job.nextRunAt!));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await feed([(await queued(stub)).at(-1)!.body], "prompts", env);
    expect(ai.runs.map((r) => r.model)).toEqual([own]);
    expect(await botTexts(stub, chatId)).toEqual(["Weekly review: done."]);
  });
});

describe("Workers AI's failures", () => {
  it("tries a turn again after out of capacity, resuming after its recorded step: no tool runs twice", async () => {
    const ai = fakeAi(
      { response: "", tool_calls: [{ name: "schedule_create", arguments: { name: "Tea", kind: "prompt", delay: "PT1H", text: "Tea." } }] },
      new Error("3040: Capacity temporarily exceeded, please try again."),
    );
    const { chatId, stub, env } = await chatOnWorkersAi(ai);
    const errors = quietConsole("error");
    const fed = await feed([await userSays(stub, chatId, "tea in an hour")], "prompts", env);
    expect(fed.explicitAcks).toEqual(fed.ids);
    expect(fed.retryMessages).toEqual([]);
    const next = await alarmOf(stub);
    expect(lines(errors)).toEqual([
      `prompts: m:1 try 1 failed (Workers AI answered 3040: Capacity temporarily exceeded, please try again.); the next at ${new Date(next!).toISOString()}`,
    ]);
    expect(await botTexts(stub, chatId)).toEqual([]);

    ai.answer({ response: "Done: tea in an hour." });
    const { sent } = await nextTry(stub);
    await feed(sent, "prompts", env);
    expect(ai.runs).toHaveLength(3);
    // The third call carries the recorded step: the call 0-1 and its answer, which did not run again.
    expect(ai.runs[2]!.inputs.messages.slice(-2).map((m) => [m.role, m.tool_call_id ?? m.tool_calls?.[0]?.id])).toEqual([
      ["assistant", "0-1"],
      ["tool", "0-1"],
    ]);
    const jobs = (await must(stub.listJobs(chatId, {}))).jobs;
    expect(jobs.map((j) => j.name)).toEqual(["Tea"]);
    expect(await botTexts(stub, chatId)).toEqual(["Done: tea in an hour."]);
    // No try is waiting: the chat's alarm is its one job's.
    expect(await alarmOf(stub)).toBe(Date.parse(jobs[0]!.nextRunAt!));
  });

  it("tells the chat in one sentence when the model does not exist, fails the run, and does not retry", async () => {
    const ai = fakeAi(new Error("5007: No such model @cf/nobody/nothing or task"));
    const { chatId, stub, env } = await chatOnWorkersAi(ai, { LLM_MODEL: "@cf/nobody/nothing" });
    const { job, message } = await fireCron(stub, chatId, "Summarise my inbox.");
    const fed = await feed([message], "prompts", env);
    expect(fed.explicitAcks).toEqual(fed.ids);
    const sentence = '⚠️ The model was not found (Workers AI error 5007): check LLM_MODEL ("@cf/nobody/nothing").';
    expect(await botTexts(stub, chatId)).toEqual([sentence]);
    const [run] = await must(stub.jobRuns(chatId, job.id));
    expect(run).toMatchObject({ status: "failed", detail: sentence.replace(/^⚠️ /, "") });
    expect(ai.runs).toHaveLength(1);
  });
});

describe("the day's budget of model turns", () => {
  it("answers past LLM_MAX_TURNS_PER_DAY with the day's notice and no call to Workers AI", async () => {
    const ai = fakeAi({ response: "First answer." });
    const { chatId, stub, env } = await chatOnWorkersAi(ai, { LLM_MAX_TURNS_PER_DAY: "1" });
    await advanceTo(stub, nextNoonUtc(await clockOf(stub)));
    for (const text of ["one", "two"]) await feed([await userSays(stub, chatId, text)], "prompts", env);
    expect(ai.runs).toHaveLength(1);
    expect(await botTexts(stub, chatId)).toEqual([
      "First answer.",
      "⚠️ This chat has used its 1 model turns for today, so I will answer again tomorrow. Your scheduled jobs keep running. (The bot's owner can raise LLM_MAX_TURNS_PER_DAY.)",
    ]);
  });
});
