/**
 * A model's tool calls taken as the model meant them (docs/agent.md#the-model-agent-agentllm, issue 32), against the
 * fake model (test/stub/model-stub.ts) naming its own call ids: a call whose id the turn used already, in the same
 * answer or an earlier step, is not run, and the conversation sent back holds every id once, each assistant tool
 * call with exactly one `tool` answer (the repeat under a fresh id, answered that it was not run), as a real
 * provider requires (it answers 400 to a `tool_call_id` twice). Chat ids 8760000 up.
 */
import { describe, expect, it, vi } from "vitest";
import { chatWith as chatOf, feed, model, userSays } from "./agent-helpers";
import { chatIds, must } from "./helpers";

vi.setConfig({ testTimeout: 30_000 });
const newChat = chatIds(8_760_000);

const water = (name: string) => ({ name: "schedule_create", arguments: { name, kind: "prompt", delay: "PT2H", text: `${name}.` } });
const NOT_RUN = { ok: false, text: "Not run: this call id was already used." };

describe("a tool call id used twice", () => {
  it("runs the first call only, in one answer and across steps, and sends back each id once with one answer", async () => {
    const m = model();
    const { chatId, stub } = await chatOf(newChat, m.vars);
    await m.script(
      {
        kind: "tools",
        calls: [
          { id: "call_a", ...water("Water the fern") },
          { id: "call_a", ...water("Water the fern again") },
        ],
      },
      {
        kind: "tools",
        calls: [
          { id: "call_a", ...water("Water the cactus") },
          { id: "call_b", ...water("Water the palm") },
        ],
      },
      { kind: "text", content: "Done." },
    );
    await feed([await userSays(stub, chatId, "water the plants in two hours")], "prompts", m.env);

    // The first call_a and call_b ran; neither repeat of call_a did.
    const jobs = (await must(stub.listJobs(chatId, {}))).jobs;
    expect(jobs.map((j) => j.name).sort()).toEqual(["Water the fern", "Water the palm"]);

    const requests = await m.requests();
    expect(requests).toHaveLength(3);
    const last = requests[2]!.messages;
    const calls = last.filter((x) => x.role === "assistant").flatMap((x) => x.tool_calls ?? []);
    const answers = last.filter((x) => x.role === "tool");
    // Each id once, in the order the model asked; each call answered once, right after its assistant message.
    expect(calls.map((c) => c.id)).toEqual(["call_a", "call_a~2", "call_a~3", "call_b"]);
    expect(answers.map((x) => x.tool_call_id)).toEqual(["call_a", "call_a~2", "call_a~3", "call_b"]);
    const answerOf = (id: string) => JSON.parse(answers.find((x) => x.tool_call_id === id)!.content!) as { ok: boolean; text: string };
    expect(answerOf("call_a~2")).toEqual(NOT_RUN);
    expect(answerOf("call_a~3")).toEqual(NOT_RUN);
    expect([answerOf("call_a").ok, answerOf("call_b").ok]).toEqual([true, true]);
    // The repeats keep their name, without arguments: what the model asked is visible, nothing of it ran.
    expect(calls.map((c) => [c.function.name, c.id.includes("~") ? c.function.arguments : "…"])).toEqual([
      ["schedule_create", "…"],
      ["schedule_create", "{}"],
      ["schedule_create", "{}"],
      ["schedule_create", "…"],
    ]);
    // The second request, after the first answer, already held each id once.
    expect(requests[1]!.messages.filter((x) => x.role === "tool").map((x) => x.tool_call_id)).toEqual(["call_a", "call_a~2"]);
  });
});
