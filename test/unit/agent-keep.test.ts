/**
 * What a chat keeps of a model's answer and when a failed try is tried again (docs/agent.md, issue 22), pure: a
 * reply cut at 128,000 characters with a marked end (never half a surrogate pair); calls beyond 8 a step, names
 * over 100 characters, arguments over 16 KB and an id used before refused, kept so the conversation stays one a
 * server takes back;
 * a tool's answer kept within 64 KB; a text cut to a byte limit; the waits after each failed try, with the
 * server's Retry-After when longer, up to 15 minutes; the transcript's tool entries made from recorded steps.
 */
import { describe, expect, it } from "vitest";
import { keptAnswer, keptReply, keptResult, resultContent } from "../../src/agent/keep";
import { cutToBytes, utf8Bytes } from "../../src/bytes";
import { nextTryDelayMs, toolRecords } from "../../src/chat/model-turns";

const call = (name: string, args: string, id = "call_1") => ({ id, type: "function" as const, function: { name, arguments: args } });

describe("a reply the chat keeps", () => {
  it("is whole up to 128,000 characters and cut with a marked end past them", () => {
    expect(keptReply("x".repeat(128_000))).toBe("x".repeat(128_000));
    const mark = "\n\n…(cut here: the reply was longer than 128,000 characters)";
    expect(keptReply("y".repeat(128_001))).toBe("y".repeat(128_000 - mark.length) + mark);
  });

  it("never ends in half of a surrogate pair", () => {
    const mark = "\n\n…(cut here: the reply was longer than 128,000 characters)";
    const end = 128_000 - mark.length;
    // An emoji (two UTF-16 units) across the cut is left out whole.
    const text = `${"a".repeat(end - 1)}😀${"b".repeat(1_000)}`;
    const kept = keptReply(text);
    expect(kept === "a".repeat(end - 1) + mark).toBe(true);
  });
});

describe("a step's tool calls", () => {
  it("runs at most 8, refuses a long name or big arguments with a sentence, and keeps each refused call's id with {} and a cut name", () => {
    const name = "n".repeat(101);
    const big = JSON.stringify({ body: "z".repeat(16 * 1024) });
    const calls = [call(name, "{}", "a"), call("memory_create", big, "b"), ...Array.from({ length: 8 }, (_, i) => call("schedule_list", "{}", `c${i}`))];
    const { answer, refused } = keptAnswer({ content: "Let me see.", toolCalls: calls });
    expect(answer.content).toBe("Let me see.");
    expect(answer.calls.slice(0, 3)).toEqual([
      { id: "a", name: "n".repeat(100), args: "{}" },
      { id: "b", name: "memory_create", args: "{}" },
      { id: "c0", name: "schedule_list", args: "{}" },
    ]);
    expect(refused).toEqual([
      "Refused: no tool has a name over 100 characters; call one of the tools you were given, by its name.",
      "Refused: the arguments are over 16 KB; send shorter ones (a job's text is at most 4,000 characters).",
      ...Array.from({ length: 6 }, () => null),
      ...Array.from({ length: 2 }, () => "Refused: at most 8 tool calls run in one step; make this call again in the next step if it is still needed."),
    ]);
  });

  it("refuses a call whose id came earlier in the answer or in the turn, under a fresh id that no call has", () => {
    const calls = [
      call("schedule_list", "{}", "x"),
      call("memory_create", '{"title":"a"}', "x"),
      call("schedule_list", "{}", "y"),
      call("schedule_list", "{}", "x~2"),
    ];
    const { answer, refused } = keptAnswer({ content: null, toolCalls: calls }, new Set(["y"]));
    expect(answer.calls).toEqual([
      { id: "x", name: "schedule_list", args: "{}" },
      { id: "x~3", name: "memory_create", args: "{}" },
      { id: "y~2", name: "schedule_list", args: "{}" },
      { id: "x~2", name: "schedule_list", args: "{}" },
    ]);
    // The model's own x~2 runs: the repeat of x was given an id the answer does not hold.
    const again = "Not run: this call id was already used.";
    expect(refused).toEqual([null, again, again, null]);
    // An id at the length limit stays within it.
    const long = "i".repeat(200);
    expect(keptAnswer({ content: null, toolCalls: [call("schedule_list", "{}", long)] }, new Set([long])).answer.calls[0]!.id).toBe(`${"i".repeat(198)}~2`);
  });

  it("takes arguments of exactly 16 KB, and keeps at most 32 calls of one answer", () => {
    const exact = `"${"q".repeat(16 * 1024 - 2)}"`;
    expect(keptAnswer({ content: null, toolCalls: [call("memory_create", exact)] }).refused).toEqual([null]);
    const many = keptAnswer({ content: null, toolCalls: Array.from({ length: 40 }, (_, i) => call("schedule_list", "{}", `id${i}`)) });
    expect(many.answer.calls.map((c) => c.id)).toEqual(Array.from({ length: 32 }, (_, i) => `id${i}`));
  });
});

describe("a tool's answer the turn keeps", () => {
  it("is the tool endpoint's JSON, whole within 64 KB", () => {
    const kept = keptResult({ ok: true, text: "Listed.", data: { jobs: [{ id: "k7m2q" }] } });
    expect(kept).toEqual({ ok: true, text: "Listed.", data: '{"jobs":[{"id":"k7m2q"}]}' });
    expect(JSON.parse(resultContent(kept))).toEqual({ ok: true, text: "Listed.", data: { jobs: [{ id: "k7m2q" }] } });
    expect(resultContent({ ok: false, text: 'No "job".' })).toBe(JSON.stringify({ ok: false, text: 'No "job".' }));
  });

  it("past 64 KB keeps its sentence cut, marked, and leaves its data out", () => {
    const kept = keptResult({ ok: true, text: "t".repeat(40_000), data: { big: "d".repeat(70_000) } });
    expect(kept.data).toBeUndefined();
    expect(kept.text.endsWith("\n…(cut here: the tool's answer was over 64 KB, and its data is left out)")).toBe(true);
    expect(utf8Bytes(resultContent(kept))).toBeLessThanOrEqual(64 * 1024);
  });
});

describe("a text cut to a byte limit", () => {
  it("is whole when it fits and otherwise its longest prefix of whole characters, then the mark", () => {
    expect(cutToBytes("héllo", 6, "…")).toBe("héllo");
    expect(cutToBytes("héllo", 5, "…")).toBe("h…"); // "…" takes 3 bytes, "é" 2
    expect(cutToBytes("ab😀cd", 7, "!")).toBe("ab😀!");
    expect(cutToBytes("ab😀cd", 6, "!")).toBe("ab!"); // the emoji's 4 bytes do not fit in the 3 left after "ab"
    expect(utf8Bytes(cutToBytes("€".repeat(5000), 4096, "…(cut)"))).toBeLessThanOrEqual(4096);
  });
});

describe("the wait before a failed turn's next try", () => {
  it("is about 15 s, 1 min, 3 min and 6 min after the 1st to 4th failed try, ±10%", () => {
    const at = (r: number) => [1, 2, 3, 4].map((n) => nextTryDelayMs(n, null, () => r));
    expect(at(0.5)).toEqual([15_000, 60_000, 180_000, 360_000]);
    expect(at(0)).toEqual([13_500, 54_000, 162_000, 324_000]);
    expect(at(1)).toEqual([16_500, 66_000, 198_000, 396_000]);
  });

  it("is the server's Retry-After when longer, in whole milliseconds, at most 15 minutes", () => {
    expect(nextTryDelayMs(1, 17, () => 0.5)).toBe(17_000);
    expect(nextTryDelayMs(1, 9.2, () => 0.5)).toBe(15_000);
    expect(nextTryDelayMs(2, 120.5, () => 0.5)).toBe(120_500);
    expect(nextTryDelayMs(1, 86_400, () => 0.5)).toBe(15 * 60_000);
    expect(nextTryDelayMs(4, 600, () => 1)).toBe(600_000);
  });
});

describe("a turn's tool entries in the transcript", () => {
  it("come from its recorded steps, each keeping 4 KB of arguments and of result, and say when no result was recorded", () => {
    const args = JSON.stringify({ title: "Notes", body: "b".repeat(9_000) });
    const entries = toolRecords([
      { answer: { content: null, calls: [{ id: "1", name: "memory_create", args }] }, results: [{ ok: true, text: "r".repeat(5_000) }] },
      { answer: { content: null, calls: [{ id: "2", name: "schedule_list", args: "{}" }] }, results: null },
    ]);
    const mark = "…(cut here: over 4 KB)";
    expect(entries.map((e) => [e.name, e.ok, utf8Bytes(e.args) <= 4096, e.args.endsWith(mark), utf8Bytes(e.text) <= 4096, e.text.endsWith(mark)])).toEqual([
      ["memory_create", true, true, true, true, true],
      ["schedule_list", false, true, false, true, false],
    ]);
    expect(entries[1]).toEqual({ name: "schedule_list", args: "{}", ok: false, text: "(no result was recorded)" });
  });
});
