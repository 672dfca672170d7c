/**
 * The tool catalog's declarations (docs/agent.md, docs/api.md, issue 23): every tool says, where it is defined, what a turn
 * a job or a watcher caused may do with it, and that one declaration is what `invoke` enforces, before the
 * chat's object is ever asked. A chat that answers every question with "asked" shows which calls reached it.
 */
import { describe, expect, it } from "vitest";
import type { TurnPolicy } from "../../src/schemas/tools";
import { callTool, tools } from "../../src/tools/catalog";
import type { ToolContext } from "../../src/tools/schedule";

const JOB_TURN_REFUSAL =
  "A scheduled run cannot change the schedule: in a turn a job or watcher started, only list, preview and one follow-up one-off prompt (at or delay) are allowed.";
const NO_MORE_FOLLOW_UPS = "This turn may not create another job: a scheduled run creates at most one follow-up, and a follow-up's own run creates none.";

/**
 * A context whose chat answers every call `ok: false` "asked", and the names of the calls it got; `mayChange` (a
 * group member's right to change) answers `may` when given.
 */
function context(policy: TurnPolicy, may?: boolean): { ctx: ToolContext; asked: string[] } {
  const asked: string[] = [];
  const chat = new Proxy(
    {},
    {
      get: (_target, name) => async () => {
        asked.push(String(name));
        if (name === "mayChange" && may !== undefined) return { ok: true, value: may };
        return { ok: false, error: { code: "bad_request", message: "asked" } };
      },
    },
  ) as ToolContext["chat"];
  const dryRun: ToolContext["dryRun"] = async () => {
    asked.push("dryRun");
    return { ok: false, code: "not_configured", message: "asked" };
  };
  return { ctx: { chatId: "123", chat, dryRun, now: () => 0, createdBy: "job", policy }, asked };
}

/**
 * Valid arguments for each tool, and what its call asks the chat first: every tool is listed, so a new one
 * must say how it is called.
 */
const CALLS: Record<string, [args: Record<string, unknown>, first: string]> = {
  schedule_create: [{ name: "Later", kind: "prompt", delay: "PT1H", text: "Check again." }, "createJobWithHook"],
  schedule_update: [{ id: "k7m2q", cron: "30 9 * * 1-5" }, "editJob"],
  schedule_list: [{}, "listJobs"],
  schedule_cancel: [{ id: "k7m2q" }, "cancelJob"],
  schedule_run_now: [{ id: "k7m2q" }, "runJobNow"],
  schedule_pause: [{ id: "k7m2q" }, "pauseJob"],
  schedule_resume: [{ id: "k7m2q" }, "resumeJob"],
  schedule_skip: [{ id: "k7m2q" }, "skipJob"],
  schedule_hook: [{ id: "k7m2q", hook: "new" }, "makeHook"],
  schedule_preview: [{ cron: "0 9 * * *" }, "getSettings"],
  schedule_test: [{ command: "echo hi" }, "getSettings"],
  set_timezone: [{ zone: "Asia/Tokyo" }, "setTimeZone"],
  memory_list: [{}, "listMemory"],
  memory_get: [{ id: "m4x7pq" }, "getMemory"],
  memory_create: [{ title: "Seen", body: "Checked." }, "createMemory"],
  memory_update: [{ id: "m4x7pq", revision: 1, body: "Checked twice." }, "updateMemory"],
  memory_delete: [{ id: "m4x7pq" }, "deleteMemory"],
};

describe("the tool catalog", () => {
  it("declares for every tool what a turn a job or a watcher caused may do with it", () => {
    expect(tools().map((t) => [t.name, t.jobTurn])).toEqual([
      ["schedule_create", "follow-up"],
      ["schedule_update", "refused"],
      ["schedule_list", "allowed"],
      ["schedule_cancel", "refused"],
      ["schedule_run_now", "refused"],
      ["schedule_pause", "refused"],
      ["schedule_resume", "refused"],
      ["schedule_skip", "refused"],
      ["schedule_hook", "refused"],
      ["schedule_preview", "allowed"],
      ["schedule_test", "refused"],
      ["set_timezone", "refused"],
      ["memory_list", "allowed"],
      ["memory_get", "allowed"],
      ["memory_create", "allowed"],
      ["memory_update", "allowed"],
      ["memory_delete", "allowed"],
    ]);
    expect(Object.keys(CALLS)).toEqual(tools().map((t) => t.name));
  });

  it("refuses a job's turn each refused tool with the one sentence, before the chat is asked", async () => {
    for (const tool of tools().filter((t) => t.jobTurn === "refused")) {
      const { ctx, asked } = context({ kind: "job", followUps: 1 });
      expect(await callTool(ctx, tool.name, CALLS[tool.name]![0]), tool.name).toEqual({ ok: false, text: JOB_TURN_REFUSAL });
      expect(asked, tool.name).toEqual([]);
    }
  });

  it("lets a job's turn reach the chat with each allowed tool, and a user's turn with every tool", async () => {
    for (const tool of tools()) {
      for (const policy of tool.jobTurn === "refused" ? [{ kind: "user" } as const] : [{ kind: "user" } as const, { kind: "job", followUps: 1 } as const]) {
        const { ctx, asked } = context({ ...policy });
        const [args, first] = CALLS[tool.name]!;
        await callTool(ctx, tool.name, args);
        expect(asked[0], `${tool.name} in a ${policy.kind}'s turn`).toBe(first);
      }
    }
  });

  it("takes as a follow-up only a one-off prompt (at, delay; a legacy reminder; no cron, no rrule), and only while the turn has one left", async () => {
    const refusedAs = async (args: Record<string, unknown>, followUps = 1) => {
      const { ctx, asked } = context({ kind: "job", followUps });
      const reply = await callTool(ctx, "schedule_create", args);
      return asked.length === 0 ? reply.text : "asked";
    };
    const base = { name: "Later", text: "Check again." };
    expect(await refusedAs({ ...base, kind: "prompt", at: "2030-01-01T09:00" })).toBe("asked");
    expect(await refusedAs({ ...base, kind: "reminder", delay: "PT1H" })).toBe("asked");
    expect(await refusedAs({ ...base, kind: "prompt", delay: "PT1H", cron: null })).toBe("asked");
    expect(await refusedAs({ ...base, kind: "prompt", cron: "0 9 * * *" })).toBe(JOB_TURN_REFUSAL);
    // A recurrence rule is a recurring job too, however it is written.
    expect(await refusedAs({ ...base, kind: "prompt", rrule: "FREQ=DAILY;COUNT=2", start: "2030-01-01T09:00" })).toBe(JOB_TURN_REFUSAL);
    // No time of its own is no one-off: whatever schedule form it names instead stays closed to a job's turn.
    expect(await refusedAs({ ...base, kind: "prompt" })).toBe(JOB_TURN_REFUSAL);
    expect(await refusedAs({ name: "Watch", kind: "watcher", delay: "PT1H", command: "echo" })).toBe(JOB_TURN_REFUSAL);
    expect(await refusedAs({ ...base, delay: "PT1H" })).toBe(JOB_TURN_REFUSAL);
    expect(await refusedAs({ ...base, kind: "prompt", delay: "PT1H" }, 0)).toBe(NO_MORE_FOLLOW_UPS);
  });

  it("declares for every tool whether a group member who is not an admin may have it called: only the reads", () => {
    expect(
      tools()
        .filter((t) => t.memberTurn === "allowed")
        .map((t) => t.name),
    ).toEqual(["schedule_list", "schedule_preview", "memory_list", "memory_get"]);
    expect(
      tools()
        .filter((t) => t.memberTurn !== "allowed")
        .every((t) => t.memberTurn === "admins"),
    ).toBe(true);
  });

  it("lets a group member's turn read without asking who they are, and asks the chat once before the first change", async () => {
    for (const tool of tools()) {
      const [args, first] = CALLS[tool.name]!;
      const reads = tool.memberTurn === "allowed";
      // A member who may not change: reads reach the chat, a change is refused with the sentence.
      const member = context({ kind: "member", userId: "5270002" }, false);
      const reply = await callTool(member.ctx, tool.name, args);
      if (reads) expect(member.asked[0], tool.name).toBe(first);
      else {
        expect(reply, tool.name).toEqual({ ok: false, text: "Only the group's admins can change its jobs." });
        expect(member.asked, tool.name).toEqual(["mayChange"]);
      }
      // An admin (or a listed user): the change reaches the chat, after the one question.
      const admin = context({ kind: "member", userId: "5270001" }, true);
      await callTool(admin.ctx, tool.name, args);
      expect(admin.asked[0], tool.name).toBe(reads ? first : "mayChange");
      if (!reads) expect(admin.asked[1], tool.name).toBe(first);
    }
    // Found allowed, the member is a user for the rest of the turn: the chat is not asked again.
    const admin = context({ kind: "member", userId: "5270001", threadId: 42 }, true);
    await callTool(admin.ctx, "set_timezone", { zone: "Asia/Tokyo" });
    await callTool(admin.ctx, "set_timezone", { zone: "Europe/Berlin" });
    expect(admin.asked).toEqual(["mayChange", "setTimeZone", "setTimeZone"]);
    expect(admin.ctx.policy).toEqual({ kind: "user", threadId: 42 });
  });

  it("checks the arguments before the turn's rights: a bad argument is its own sentence", async () => {
    const { ctx, asked } = context({ kind: "job", followUps: 1 });
    expect(await callTool(ctx, "schedule_cancel", { id: "k7m2q", color: "red" })).toEqual({ ok: false, text: 'Unknown field "color".' });
    expect(await callTool(ctx, "no_such_tool", {})).toEqual({
      ok: false,
      text: `There is no tool "no_such_tool"; the tools are ${tools()
        .map((t) => t.name)
        .join(", ")}.`,
    });
    expect(asked).toEqual([]);
  });
});
