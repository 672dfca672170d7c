/**
 * The own-agent template's tools (examples/own-agent, docs/api.md#tools-for-agents): the template takes the run gate over HTTP
 * and hands its `answer` the chat's MCP tools, which carry the gate's token in `X-Cuckoo-Turn` while a job's
 * prompt is handled, so Cuckoo gives those calls only what a job's turn may do; a user's prompt has every tool.
 * The template reaches the app through its `CUCKOO` binding, here the app itself. Chat ids 9710000 up.
 */
import { describe, expect, it } from "vitest";
import { type Env as AgentEnv, handle, type PromptMessage, type ToolReply } from "../../examples/own-agent/src/index";
import { app } from "../../src/http/app";
// The route loads the MCP server (and its SDK) on the first request; loaded here, before any test's time runs.
import "../../src/mcp/server";
import { expectGateFree, userMessage } from "./agent-helpers";
import { chatIds, envWith, fireJob, jobsOf, must, spyQueue, transcript } from "./helpers";

const newChat = chatIds(9_710_000);

/** The template's env: Cuckoo over a "service binding" that is the app, under `npm run dev`'s open routes. */
const agentEnv: AgentEnv = {
  CUCKOO: { fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(app.request(String(input), init, envWith())) } as Fetcher,
};

const REFUSAL =
  "A scheduled run cannot change the schedule: in a turn a job or watcher started, only list, preview and one follow-up one-off prompt (at or delay) are allowed.";

describe("the own-agent template's tools", () => {
  it("calls them with the job's turn while it handles a job's prompt: refused what the turn may not do, one follow-up made", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const fired = await fireJob(chatId, stub, { name: "Check the news", text: "Check the news." });
    const replies: ToolReply[] = [];
    await handle(agentEnv, fired.message as PromptMessage, async (message, tools) => {
      replies.push(await tools("set_timezone", { zone: "Asia/Tokyo" }));
      replies.push(await tools("schedule_create", { name: "Again", kind: "prompt", cron: "* * * * *", text: "Again!" }));
      replies.push(await tools("schedule_create", { name: "Follow up", kind: "prompt", delay: "PT1H", text: "Look again." }));
      replies.push(await tools("schedule_lists"));
      return `Handled ${message.jobName}.`;
    });
    expect(replies.map((r) => [r.ok, r.ok ? "" : r.text])).toEqual([
      [false, REFUSAL],
      [false, REFUSAL],
      [true, ""],
      [false, expect.stringMatching(/^There is no tool "schedule_lists"; the tools are schedule_create, /)],
    ]);
    expect((await jobsOf({ chatId, stub })).map((j) => [j.name, j.createdBy])).toEqual([["Follow up", "job"]]);
    expect((await transcript(stub, chatId)).filter((e) => e.role === "bot").map((e) => e.text)).toEqual(["Handled Check the news."]);
    // Settled: the one-off is gone with its history, and the gate is free.
    expect(await stub.jobRuns(chatId, fired.job.id)).toMatchObject({ ok: false });
    await expectGateFree(stub, chatId);
  });

  it("calls them with a user's rights while it handles a user's message", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    let reply: ToolReply | null = null;
    await handle(agentEnv, userMessage(chatId, "1", "Use Tokyo time") as PromptMessage, async (_message, tools) => {
      reply = await tools("set_timezone", { zone: "Asia/Tokyo" });
      return "Done.";
    });
    expect(reply).toMatchObject({ ok: true, text: expect.stringMatching(/^Time zone set to Asia\/Tokyo/) });
    expect((await must(stub.getSettings(chatId))).timeZone).toBe("Asia/Tokyo");
  });
});
