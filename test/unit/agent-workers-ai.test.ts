/**
 * The Workers AI client (docs/agent.md#workers-ai), against a fake `AI` binding that records its calls: the request
 * (the conversation with text content and each tool answer's name, the tools, the longest answer), both shapes of
 * answer (traditional `response` and `tool_calls`, flat or nested, and OpenAI's `choices`), every call named
 * `<step>-<n>`, an answer in neither shape, and each thrown error as the turn's failure: refused (what to fix) or
 * unavailable (tried again), and a call past its time limit.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ChatMessage, type FunctionTool, ModelRefused, ModelUnavailable } from "../../src/agent/model";
import { completeWithAi, MAX_TOKENS, workersAiCompletion, workersAiFailure, workersAiRequest } from "../../src/agent/workers-ai";

const MODEL = "@cf/meta/llama-4-scout-17b-16e-instruct";

const listTool: FunctionTool = {
  type: "function",
  function: { name: "schedule_list", description: "Lists the jobs.", parameters: { type: "object", properties: {} } },
};

const conversation: ChatMessage[] = [
  { role: "system", content: "You schedule." },
  { role: "user", content: "What is planned?" },
  { role: "assistant", content: null, tool_calls: [{ id: "0-1", type: "function", function: { name: "schedule_list", arguments: "{}" } }] },
  { role: "tool", tool_call_id: "0-1", content: '{"ok":true,"text":"No jobs."}' },
];

/** A fake binding: answers `outputs` in turn (an Error is thrown), recording each call. */
function fakeAi(...outputs: unknown[]) {
  const calls: { model: string; inputs: Record<string, unknown>; signal: AbortSignal | undefined }[] = [];
  return {
    calls,
    run: async (model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }) => {
      calls.push({ model, inputs, signal: options?.signal });
      const output = outputs.shift();
      if (output instanceof Error) throw output;
      return output;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the request", () => {
  it("sends the conversation with text content, each tool answer's call id and tool name, the tools and the longest answer", () => {
    expect(workersAiRequest(conversation, [listTool])).toEqual({
      messages: [
        { role: "system", content: "You schedule." },
        { role: "user", content: "What is planned?" },
        { role: "assistant", content: "", tool_calls: [{ id: "0-1", type: "function", function: { name: "schedule_list", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "0-1", name: "schedule_list", content: '{"ok":true,"text":"No jobs."}' },
      ],
      tools: [listTool],
      max_tokens: 4096,
    });
    expect(MAX_TOKENS).toBe(4096);
  });

  it("leaves the tools out when there are none, and an assistant's text as it is", () => {
    expect(workersAiRequest([{ role: "assistant", content: "Hello." }], [])).toEqual({
      messages: [{ role: "assistant", content: "Hello." }],
      max_tokens: 4096,
    });
  });
});

describe("the answer", () => {
  it("reads the traditional shape: the response and flat tool calls, named <step>-<n>, their arguments as JSON text", () => {
    const output = {
      response: null,
      tool_calls: [
        { name: "schedule_list", arguments: {} },
        { name: "schedule_create", arguments: { name: "Tea", kind: "prompt", delay: "PT5M", text: "Tea." } },
        { name: "schedule_skip" },
      ],
    };
    expect(workersAiCompletion(output, 2)).toEqual({
      content: null,
      toolCalls: [
        { id: "2-1", type: "function", function: { name: "schedule_list", arguments: "{}" } },
        { id: "2-2", type: "function", function: { name: "schedule_create", arguments: '{"name":"Tea","kind":"prompt","delay":"PT5M","text":"Tea."}' } },
        { id: "2-3", type: "function", function: { name: "schedule_skip", arguments: "{}" } },
      ],
    });
  });

  it("reads nested tool calls (Llama 4's), replacing the model's own ids", () => {
    const output = {
      response: "Let me look.",
      tool_calls: [{ id: "chatcmpl-tool-8f2e", type: "function", function: { name: "memory_list", arguments: { query: "tea" } } }],
    };
    expect(workersAiCompletion(output, 0)).toEqual({
      content: "Let me look.",
      toolCalls: [{ id: "0-1", type: "function", function: { name: "memory_list", arguments: '{"query":"tea"}' } }],
    });
  });

  it("reads a newer model's OpenAI-shaped choices, arguments given as JSON text kept as they are", () => {
    const output = {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          finish_reason: "tool_calls",
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "functions.schedule_list:0", type: "function", function: { name: "schedule_list", arguments: "{}" } },
              { id: "functions.schedule_pause:1", type: "function", function: { name: "schedule_pause", arguments: '{"id":"k7m2q"}' } },
            ],
          },
        },
      ],
    };
    expect(workersAiCompletion(output, 5)).toEqual({
      content: null,
      toolCalls: [
        { id: "5-1", type: "function", function: { name: "schedule_list", arguments: "{}" } },
        { id: "5-2", type: "function", function: { name: "schedule_pause", arguments: '{"id":"k7m2q"}' } },
      ],
    });
  });

  it("reads a text answer in each shape, and a bare string", () => {
    expect(workersAiCompletion({ response: "Done.", usage: { total_tokens: 9 } }, 0)).toEqual({ content: "Done.", toolCalls: [] });
    expect(workersAiCompletion({ choices: [{ message: { content: "Done." } }] }, 0)).toEqual({ content: "Done.", toolCalls: [] });
    expect(workersAiCompletion("Done.", 0)).toEqual({ content: "Done.", toolCalls: [] });
  });

  it("is unavailable (tried again) when in neither shape", () => {
    for (const output of [{ choices: [] }, { response: "x", tool_calls: [{ arguments: {} }] }, null, 42]) {
      expect(() => workersAiCompletion(output, 0), JSON.stringify(output)).toThrow(ModelUnavailable);
    }
    expect(() => workersAiCompletion({ choices: [] }, 0)).toThrow(/^the model's answer is not a chat completion: /);
  });
});

describe("a thrown error", () => {
  it("is refused, with what to fix, for a model Workers AI does not have", () => {
    const failure = workersAiFailure(new Error(`5007: No such model ${MODEL}-x or task`), `${MODEL}-x`);
    expect(failure).toBeInstanceOf(ModelRefused);
    expect(failure).toMatchObject({
      status: 404,
      sentence: `⚠️ The model was not found (Workers AI error 5007): check LLM_MODEL ("${MODEL}-x").`,
    });
    expect(workersAiFailure(new Error("3042: The model name is invalid"), "nope")).toMatchObject({
      status: 404,
      sentence: '⚠️ The model was not found (Workers AI error 3042): check LLM_MODEL ("nope").',
    });
  });

  it("is refused, with Workers AI's words, for a request no try can change", () => {
    expect(workersAiFailure(new Error("5016: User has not agreed to Llama3.2 model terms"), MODEL)).toMatchObject({
      status: 403,
      sentence: "⚠️ Workers AI refused the request (error 5016): User has not agreed to Llama3.2 model terms.",
    });
    expect(workersAiFailure(new Error("3006: Request is too large."), MODEL)).toMatchObject({
      status: 413,
      sentence: "⚠️ Workers AI refused the request (error 3006): Request is too large.",
    });
  });

  it("is unavailable for capacity, the day's allocation, a time-out, an unknown code and no code at all", () => {
    const cases: [string, string][] = [
      ["3040: Capacity temporarily exceeded, please try again.", "Workers AI answered 3040: Capacity temporarily exceeded, please try again."],
      [
        "3036: You have used up your daily free allocation of 10,000 neurons.",
        "Workers AI answered 3036: You have used up your daily free allocation of 10,000 neurons.",
      ],
      ["3007: Request timeout", "Workers AI answered 3007: Request timeout"],
      ["9999: Something new", "Workers AI answered 9999: Something new"],
      ["Network connection lost.", "the model did not answer: Network connection lost."],
    ];
    for (const [thrown, detail] of cases) {
      const failure = workersAiFailure(new Error(thrown), MODEL);
      expect(failure, thrown).toBeInstanceOf(ModelUnavailable);
      expect(failure.message).toBe(detail);
    }
  });
});

describe("one call through the binding", () => {
  it("runs the model with the request and a signal, and answers the completion of its step", async () => {
    const ai = fakeAi({ response: "", tool_calls: [{ name: "schedule_list", arguments: {} }] });
    const reply = await completeWithAi(ai, MODEL, conversation, [listTool], 60_000, 3);
    expect(reply).toEqual({ content: "", toolCalls: [{ id: "3-1", type: "function", function: { name: "schedule_list", arguments: "{}" } }] });
    expect(ai.calls).toHaveLength(1);
    expect(ai.calls[0]!.model).toBe(MODEL);
    expect(ai.calls[0]!.inputs).toEqual(workersAiRequest(conversation, [listTool]));
    expect(ai.calls[0]!.signal?.aborted).toBe(false);
  });

  it("throws what the binding threw as the turn's failure", async () => {
    await expect(completeWithAi(fakeAi(new Error("3040: Capacity temporarily exceeded")), MODEL, conversation, [], 60_000, 0)).rejects.toEqual(
      new ModelUnavailable("Workers AI answered 3040: Capacity temporarily exceeded"),
    );
    const refused = completeWithAi(fakeAi(new Error("5007: No such model x or task")), "x", conversation, [], 60_000, 0);
    await expect(refused).rejects.toBeInstanceOf(ModelRefused);
  });

  it("gives up on a call past its time limit, aborting its signal", async () => {
    vi.useFakeTimers();
    const calls: AbortSignal[] = [];
    const hanging = {
      run: (_model: string, _inputs: Record<string, unknown>, options?: { signal?: AbortSignal }) => {
        calls.push(options!.signal!);
        return new Promise(() => undefined);
      },
    };
    const call = completeWithAi(hanging, MODEL, conversation, [], 30_000, 0);
    const settled = expect(call).rejects.toEqual(new ModelUnavailable("the model did not answer: no answer within 30 s"));
    await vi.advanceTimersByTimeAsync(30_000);
    await settled;
    expect(calls[0]!.aborted).toBe(true);
  });
});
