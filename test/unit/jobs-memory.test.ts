/**
 * Memory references (docs/api.md; issue 16) in the pure core: the prompt section that holds the current
 * content of a job's records (ids, titles and revisions kept, bodies cut to a budget with the cut marked),
 * the firing decision that fails a run whose record is gone (never old content), run now likewise, and the
 * rules of `memoryRefs` and `onlyOnChange` on create and edit. Instants are fixed; the zone is Europe/Berlin.
 */
import { describe, expect, it } from "vitest";
import { decideFire, type FireContext, manualRun, promptMessage } from "../../src/jobs/fire";
import { MEMORY_INTRO, MEMORY_PROMPT_CHARS, type MemoryContent, memoryGoneText, memorySection, shares } from "../../src/jobs/memory";
import { type JobRecord, specDefaults } from "../../src/jobs/records";
import { validateCreate, validateEdit } from "../../src/jobs/validate";
import { MAX_PROMPT_MESSAGE_BYTES } from "../../src/jobs/watcher";
import { jobRecord } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const AT = ms("2026-09-27T07:00:00Z");
const ctx = (now: number): FireContext => ({ chatId: "123456789", zone: "Europe/Berlin", now, deliverable: true, defaultTimeout: 30 });
const record = (id: string, title: string, body: string, revision = 1): MemoryContent => ({ id, title, body, revision });
const lookup = (...records: MemoryContent[]) => new Map(records.map((r) => [r.id, r]));

function job(over: Partial<JobRecord> = {}): JobRecord {
  return jobRecord({
    id: "k7m2q",
    name: "Weekly review",
    schedule: { type: "at", at: AT },
    text: "Review the project and note what changed.",
    memoryRefs: ["m4x7pq"],
    createdAt: ms("2026-09-20T10:00:00Z"),
    ...over,
  });
}

describe("the memory section of a prompt", () => {
  it("holds each record between marks with its id, title and revision, in the job's order", () => {
    const text = memorySection([record("m4x7pq", "Project Alpha", "Waiting for the quote.", 3), record("k2n8vq", 'The "B" plan', "")]);
    expect(text).toBe(
      [
        MEMORY_INTRO,
        '--- Memory m4x7pq "Project Alpha" (revision 3) ---',
        "Waiting for the quote.",
        "--- End of memory m4x7pq ---",
        '--- Memory k2n8vq "The \\"B\\" plan" (revision 1) ---',
        "",
        "--- End of memory k2n8vq ---",
      ].join("\n"),
    );
    expect(memorySection([])).toBe("");
  });

  it("shares the budget fairly: short bodies whole, the rest split between the long ones", () => {
    expect(shares([10, 100, 100], 110)).toEqual([10, 50, 50]);
    expect(shares([100, 10, 30], 60)).toEqual([25, 10, 25]);
    expect(shares([5, 5], 100)).toEqual([5, 5]);
    expect(shares([7], 0)).toEqual([0]);
  });

  it("cuts a body past its share, marks the cut with what was left out, and keeps every id and title", () => {
    const long = "a".repeat(30_000);
    const text = memorySection([record("m4x7pq", "Long", long), record("k2n8vq", "Short", "kept")]);
    expect(text).toContain(
      `--- Memory m4x7pq "Long" (revision 1) ---\n${"a".repeat(MEMORY_PROMPT_CHARS - 4)}\n[… ${30_000 - (MEMORY_PROMPT_CHARS - 4)} more characters cut here; memory_get m4x7pq reads the whole record]\n--- End of memory m4x7pq ---`,
    );
    expect(text).toContain('--- Memory k2n8vq "Short" (revision 1) ---\nkept\n--- End of memory k2n8vq ---');
  });

  it("never cuts between the two halves of a surrogate pair", () => {
    const text = memorySection([record("m4x7pq", "Parrots", "🦜🦜🦜")], 3);
    expect(text).toContain("\n🦜\n[… 4 more characters cut here;");
  });

  it("is cut further when the queue message would pass its limit (control characters take six bytes)", () => {
    const nul = "\u0000".repeat(16_000);
    const records = ["aaaaaa", "bbbbbb", "cccccc", "dddddd", "eeeeee"].map((id) => record(id, id, nul));
    const message = promptMessage(job({ memoryRefs: records.map((r) => r.id) }), "k7m2q:1", AT, ctx(AT), false, records);
    expect(new TextEncoder().encode(JSON.stringify(message)).length).toBeLessThanOrEqual(MAX_PROMPT_MESSAGE_BYTES);
    for (const r of records) expect(message.text).toContain(`--- Memory ${r.id} "${r.id}" (revision 1) ---`);
  });
});

describe("firing a prompt with memory references", () => {
  it("puts the records' current content after the text; the body stays the job's own text", () => {
    const decision = decideFire(job(), ctx(AT + 5_000), lookup(record("m4x7pq", "Project Alpha", "Quote expected Monday.", 2)));
    if (decision.action !== "claim") throw new Error(`expected a claim, got ${decision.action}`);
    const payload = decision.run.payload;
    if (payload?.kind !== "prompt") throw new Error("expected a prompt");
    expect(payload.message.text).toBe(
      [
        '[Scheduled job "Weekly review" (k7m2q)]',
        "Review the project and note what changed.",
        "",
        MEMORY_INTRO,
        '--- Memory m4x7pq "Project Alpha" (revision 2) ---',
        "Quote expected Monday.",
        "--- End of memory m4x7pq ---",
      ].join("\n"),
    );
    expect(payload.message.body).toBe("Review the project and note what changed.");
  });

  it("fails a cron job's run whose record is gone: settled failed, advanced, and a sentence naming the job", () => {
    const now = ms("2026-09-28T06:00:10Z");
    const cron = job({ schedule: { type: "cron", cron: "0 8 * * *" }, nextRunAt: ms("2026-09-28T06:00:00Z"), memoryRefs: ["m4x7pq", "k2n8vq"] });
    const decision = decideFire(cron, ctx(now), lookup(record("m4x7pq", "A", "a")));
    expect(decision).toStrictEqual({
      action: "fail",
      job: { ...cron, nextRunAt: ms("2026-09-29T06:00:00Z"), lastRunAt: now, lastResult: { status: "failed", at: "2026-09-28T06:00:10.000Z" } },
      run: expect.objectContaining({
        runId: `k7m2q:${ms("2026-09-28T06:00:00Z")}`,
        state: "settled",
        status: "failed",
        detail: "memory record k2n8vq no longer exists",
        payload: null,
        leaseUntil: null,
      }),
      end: "keep",
      alert:
        '⚠️ Job "Weekly review" (k7m2q) did not run: its memory record k2n8vq no longer exists. Change its memoryRefs, or /cancel k7m2q removes it; until then each of its runs fails.',
    });
  });

  it("ends a recurring job whose last run fails so: the run counted, the job to be deleted, and the sentence says it ended", () => {
    const now = ms("2026-09-28T06:00:10Z");
    const cron = job({ schedule: { type: "cron", cron: "0 8 * * *" }, nextRunAt: ms("2026-09-28T06:00:00Z"), memoryRefs: ["k2n8vq"], runsLeft: 1 });
    const decision = decideFire(cron, ctx(now), lookup());
    expect(decision).toMatchObject({
      action: "fail",
      end: "delete",
      job: { runsLeft: 0, nextRunAt: null },
      alert: '⚠️ Job "Weekly review" (k7m2q) did not run: its memory record k2n8vq no longer exists. That was its last scheduled run, so the job has ended.',
    });
  });

  it("keeps a one-off whose record is gone, paused, and says how to run it again", () => {
    const decision = decideFire(job(), ctx(AT + 1_000), lookup());
    expect(decision.action).toBe("fail");
    expect(decision.job).toMatchObject({ enabled: false, nextRunAt: null, runningRunId: null, lastResult: { status: "failed" } });
    expect((decision as { alert: string }).alert).toBe(
      '⚠️ Job "Weekly review" (k7m2q) did not run: its memory record m4x7pq no longer exists. It is paused: change its memoryRefs, then /resume k7m2q; or /cancel k7m2q removes it.',
    );
  });

  it("fails run now the same way, rescheduling nothing", () => {
    const now = AT - 3_600_000;
    const decision = manualRun(job(), ctx(now), lookup());
    expect(decision.action).toBe("fail");
    expect(decision.job).toStrictEqual({ ...job(), lastRunAt: now, lastResult: { status: "failed", at: new Date(now).toISOString() } });
    expect(decision.run).toMatchObject({ runId: `k7m2q:${now}`, manual: true, status: "failed" });
  });

  it("names every record that is gone", () => {
    expect(memoryGoneText({ id: "k7m2q", name: "R" }, ["aaaaaa", "bbbbbb", "cccccc"], "keep")).toMatch(
      /^⚠️ Job "R" \(k7m2q\) did not run: its memory records aaaaaa, bbbbbb and cccccc no longer exist\. /,
    );
  });

  it("ignores memory for a watcher (it has none)", () => {
    const watcher = job({ kind: "watcher", text: null, command: "true", memoryRefs: [], schedule: { type: "cron", cron: "*/10 * * * *" }, nextRunAt: AT });
    expect(decideFire(watcher, ctx(AT), lookup()).action).toBe("claim");
  });
});

describe("the rules of memoryRefs and onlyOnChange", () => {
  const rules = { zone: "Europe/Berlin", now: AT - 86_400_000 };
  const prompt = { name: "Review", kind: "prompt" as const, cron: "0 8 * * 1", text: "Review" };
  const watcher = { name: "Price", kind: "watcher" as const, cron: "*/10 * * * *", command: "true" };
  const sentence = async (input: Parameters<typeof validateCreate>[0]) => {
    const r = await validateCreate(input, rules);
    return r.ok ? null : r.error;
  };

  it("takes up to 5 distinct record ids on a prompt", async () => {
    const ok = await validateCreate({ ...prompt, memoryRefs: ["aaaaaa", "bbbbbb"] }, rules);
    expect(ok.ok && ok.value.spec.memoryRefs).toEqual(["aaaaaa", "bbbbbb"]);
    expect(await sentence({ ...prompt, memoryRefs: ["aaaaaa", "bbbbbb", "cccccc", "dddddd", "eeeeee", "ffffff"] })).toBe(
      '"memoryRefs" may name at most 5 memory records; got 6.',
    );
    expect(await sentence({ ...prompt, memoryRefs: ["aaaaaa", "aaaaaa"] })).toBe('"memoryRefs" names aaaaaa twice; name each memory record once.');
    expect(await sentence({ ...prompt, memoryRefs: ["k7m2q"] })).toBe(
      '"memoryRefs" holds "k7m2q", which is not a memory record id; ids look like "m4x7pq" (see memory_list).',
    );
  });

  it("keeps memoryRefs to prompts and onlyOnChange to watchers", async () => {
    expect(await sentence({ ...watcher, memoryRefs: ["aaaaaa"] })).toBe(
      "\"memoryRefs\" applies only to prompt jobs: a watcher's prompt is its script's output.",
    );
    expect(await sentence({ ...prompt, onlyOnChange: true })).toBe('"onlyOnChange" applies only to watchers.');
    const w = await validateCreate({ ...watcher, onlyOnChange: true }, rules);
    expect(w.ok && w.value.spec.onlyOnChange).toBe(true);
  });

  it("edits them with the same rules: [] clears the references, onlyOnChange turns off", async () => {
    const spec = {
      ...specDefaults(),
      name: "Review",
      kind: "prompt" as const,
      schedule: { type: "cron" as const, cron: "0 8 * * 1" },
      text: "Review",
      memoryRefs: ["aaaaaa"],
    };
    const cleared = await validateEdit(spec, { memoryRefs: [] }, rules);
    expect(cleared.ok && cleared.value.spec.memoryRefs).toEqual([]);
    expect(await validateEdit(spec, { onlyOnChange: true }, rules)).toStrictEqual({ ok: false, error: '"onlyOnChange" applies only to watchers.' });
    const w = { ...spec, kind: "watcher" as const, text: null, command: "true", memoryRefs: [], onlyOnChange: true };
    const off = await validateEdit(w, { onlyOnChange: false }, rules);
    expect(off.ok && off.value.spec.onlyOnChange).toBe(false);
  });

  it("lets an import name a past one-off (it fires at once, late); never past 5 years ahead", async () => {
    const past = await validateCreate({ name: "Old", kind: "prompt", at: "2026-09-01T09:00", text: "x" }, { ...rules, pastAllowed: true });
    expect(past.ok && past.value.nextRunAt).toBe(ms("2026-09-01T07:00:00Z"));
    expect(await sentence({ name: "Old", kind: "prompt", at: "2026-09-01T09:00", text: "x" })).toMatch(/^"at" must be in the future; /);
    const far = await validateCreate({ name: "Far", kind: "prompt", at: "2040-01-01", text: "x" }, { ...rules, pastAllowed: true });
    expect(far.ok ? "accepted" : far.error).toMatch(/^"at" must be at most 5 years ahead/);
  });
});
