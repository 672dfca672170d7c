/**
 * The rules of a job (docs/api.md, docs/time.md): a create or an edit becomes a spec with its next run, or exactly one
 * sentence. The chat is in Europe/Berlin and it is Sun 27 Sep 2026 12:15 there (10:15Z) unless a case says
 * otherwise; lengths are counted in characters (code points), so 🦜 counts one though it is two UTF-16 units.
 */
import { describe, expect, it } from "vitest";
import { type JobSpec, specDefaults } from "../../src/jobs/records";
import { type RuleContext, validateCreate, validateEdit } from "../../src/jobs/validate";
import type { CreateJobInput } from "../../src/schemas/jobs";
import { readSchedule } from "../../src/words";

const ms = (iso: string): number => Date.parse(iso);
const NOW = ms("2026-09-27T10:15:00Z");
const ctx: RuleContext = { zone: "Europe/Berlin", now: NOW };
const MIN = 60_000;
const HOUR = 60 * MIN;

const EXACTLY_ONE = 'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".';
const PROMPT_NO_COMMAND = 'A prompt job takes "text", not "command"; use kind "watcher" to run a script.';
const WATCHER_NO_TEXT = 'A watcher takes "command", not "text": its script\'s output becomes the prompt.';
const TIMEOUT_WATCHERS_ONLY = '"timeoutSeconds" applies only to watchers.';
const timeoutSentence = (got: number) => `"timeoutSeconds" must be a whole number of seconds from 1 to 3600; got ${got}.`;

const prompt = (over: Partial<CreateJobInput> = {}): CreateJobInput => ({
  name: "Inbox summary",
  kind: "prompt",
  cron: "0 8 * * 1-5",
  text: "Summarise my inbox",
  ...over,
});
const watch = (over: Partial<CreateJobInput> = {}): CreateJobInput => ({
  name: "Price check",
  kind: "watcher",
  cron: "*/10 * * * *",
  command: "curl -s https://example.com/price",
  ...over,
});

/** The sentence of a failed validation (and that it failed). */
async function problem(input: CreateJobInput, c: RuleContext = ctx): Promise<string> {
  const r = await validateCreate(input, c);
  if (r.ok) throw new Error(`expected a sentence, got ${JSON.stringify(r.value)}`);
  return r.error;
}

/** The next run of a valid create, as an ISO string. */
async function nextRun(input: CreateJobInput, c: RuleContext = ctx): Promise<string> {
  const r = await validateCreate(input, c);
  if (!r.ok) throw new Error(r.error);
  return new Date(r.value.nextRunAt ?? Number.NaN).toISOString();
}

const PARROTS = (n: number) => "🦜".repeat(n);

describe("validateCreate: what is stored", () => {
  it("stores a prompt with a cron schedule and its next run strictly after now", async () => {
    expect(await validateCreate(prompt({ cron: "  0 8 * * 1-5 " }), ctx)).toStrictEqual({
      ok: true,
      value: {
        spec: {
          name: "Inbox summary",
          kind: "prompt",
          schedule: { type: "cron", cron: "0 8 * * 1-5" },
          until: null,
          runsLeft: null,
          text: "Summarise my inbox",
          command: null,
          timeoutSeconds: null,
          memoryRefs: [],
          onlyOnChange: false,
          silent: false,
          model: null,
          missed: "once",
          graceSeconds: 60,
          before: [],
          repeat: null,
          copyOf: null,
        },
        nextRunAt: ms("2026-09-28T06:00:00Z"),
      },
    });
  });

  it("stores a watcher with its timeout, or null for the operator's default", async () => {
    const r = await validateCreate(watch({ timeoutSeconds: 3600 }), ctx);
    expect(r).toStrictEqual({
      ok: true,
      value: {
        spec: {
          name: "Price check",
          kind: "watcher",
          schedule: { type: "cron", cron: "*/10 * * * *" },
          until: null,
          runsLeft: null,
          text: null,
          command: "curl -s https://example.com/price",
          timeoutSeconds: 3600,
          memoryRefs: [],
          onlyOnChange: false,
          silent: false,
          model: null,
          missed: "once",
          graceSeconds: 60,
          before: [],
          repeat: null,
          copyOf: null,
        },
        nextRunAt: ms("2026-09-27T10:20:00Z"),
      },
    });
    const plain = await validateCreate(watch({ cron: undefined, at: "2026-10-01T18:00", timeoutSeconds: 1 }), ctx);
    expect(plain.ok && plain.value.spec).toMatchObject({ schedule: { type: "at", at: ms("2026-10-01T16:00:00Z") }, timeoutSeconds: 1 });
    const unset = await validateCreate(watch(), ctx);
    expect(unset.ok && unset.value.spec.timeoutSeconds).toBeNull();
  });

  it("stores the legacy kind reminder as a prompt with the text `Remind me: <text>`", async () => {
    expect(await validateCreate({ name: "Mum", kind: "reminder", delay: "PT2H", text: "call mum" }, ctx)).toStrictEqual({
      ok: true,
      value: {
        spec: {
          name: "Mum",
          kind: "prompt",
          schedule: { type: "at", at: NOW + 2 * HOUR },
          until: null,
          runsLeft: null,
          text: "Remind me: call mum",
          command: null,
          timeoutSeconds: null,
          memoryRefs: [],
          onlyOnChange: false,
          silent: false,
          model: null,
          missed: "once",
          graceSeconds: 60,
          before: [],
          repeat: null,
          copyOf: null,
        },
        nextRunAt: NOW + 2 * HOUR,
      },
    });
  });

  it("trims the name and counts its characters after trimming", async () => {
    const r = await validateCreate(prompt({ name: `  ${PARROTS(80)}  ` }), ctx);
    expect(r.ok && r.value.spec.name).toBe(PARROTS(80));
  });
});

describe("validateCreate: `at` and `delay`", () => {
  it("reads an offset-less `at` in the chat's zone, a date alone as 09:00, and an offset as given", async () => {
    expect(await nextRun(prompt({ cron: undefined, at: "2026-12-01T09:00" }))).toBe("2026-12-01T08:00:00.000Z");
    expect(await nextRun(prompt({ cron: undefined, at: "2026-12-01" }))).toBe("2026-12-01T08:00:00.000Z");
    expect(await nextRun(prompt({ cron: undefined, at: "2026-12-01T09:00:00-05:00" }))).toBe("2026-12-01T14:00:00.000Z");
    expect(await nextRun(prompt({ cron: undefined, at: "2026-10-01 18:00" }), { zone: "America/New_York", now: NOW })).toBe("2026-10-01T22:00:00.000Z");
  });

  it("moves a time in the spring-forward gap forward by the gap, and takes the earlier of a repeated time", async () => {
    expect(await nextRun(prompt({ cron: undefined, at: "2027-03-28T02:30" }))).toBe("2027-03-28T01:30:00.000Z");
    expect(await nextRun(prompt({ cron: undefined, at: "2026-10-25T02:30" }))).toBe("2026-10-25T00:30:00.000Z");
  });

  it("allows 60 s in the past, and names the time and how long ago beyond that", async () => {
    expect(await nextRun(prompt({ cron: undefined, at: "2026-09-27T10:14:00Z" }))).toBe("2026-09-27T10:14:00.000Z");
    expect(await problem(prompt({ cron: undefined, at: "2026-09-27T10:13:59Z" }))).toBe(
      '"at" must be in the future; 2026-09-27 12:13 in Europe/Berlin was 1 minute ago.',
    );
    expect(await problem(prompt({ cron: undefined, at: "2026-09-27T09:00" }))).toBe(
      '"at" must be in the future; 2026-09-27 09:00 in Europe/Berlin was 3 hours ago.',
    );
  });

  it("allows at most the same wall time 5 years ahead", async () => {
    expect(await nextRun(prompt({ cron: undefined, at: "2031-09-27T12:15" }))).toBe("2031-09-27T10:15:00.000Z");
    expect(await problem(prompt({ cron: undefined, at: "2031-09-27T12:16" }))).toBe(
      '"at" must be at most 5 years ahead (until 2031-09-27 12:15 in Europe/Berlin); got 2031-09-27 12:16.',
    );
  });

  it("rejects an `at` that is not ISO 8601 with a sentence showing accepted forms", async () => {
    expect(await problem(prompt({ cron: undefined, at: "tomorrow" }))).toBe(
      '"at" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in Europe/Berlin) or 2026-12-01T09:00:00Z; got "tomorrow".',
    );
  });

  it("adds a delay to now, a day keeping the wall time across the fall-back", async () => {
    expect(await nextRun(prompt({ cron: undefined, delay: "PT20M" }))).toBe("2026-09-27T10:35:00.000Z");
    const saturday = { zone: "Europe/Berlin", now: ms("2026-10-24T10:00:00Z") };
    expect(await nextRun(prompt({ cron: undefined, delay: "P1D" }), saturday)).toBe("2026-10-25T11:00:00.000Z");
    expect(await nextRun(prompt({ cron: undefined, delay: "PT1M" }))).toBe("2026-09-27T10:16:00.000Z");
  });

  it("keeps a delay from 1 minute to 5 years", async () => {
    expect(await problem(prompt({ cron: undefined, delay: "PT59S" }))).toBe('"delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "PT59S".');
    expect(await nextRun(prompt({ cron: undefined, delay: "P5Y" }))).toBe("2031-09-27T10:15:00.000Z");
    expect(await problem(prompt({ cron: undefined, delay: "P5YT1M" }))).toBe('"delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "P5YT1M".');
    expect(await problem(prompt({ cron: undefined, delay: "20 minutes" }))).toBe(
      '"delay" must be an ISO 8601 duration such as PT20M or P1DT2H; got "20 minutes".',
    );
  });
});

describe("validateCreate: one sentence per problem", () => {
  it("wants exactly one of at, cron and delay", async () => {
    expect(await problem(prompt({ cron: undefined }))).toBe(EXACTLY_ONE);
    expect(await problem(prompt({ at: "2026-12-01T09:00" }))).toBe(EXACTLY_ONE);
    expect(await problem(prompt({ cron: undefined, at: "2026-12-01T09:00", delay: "PT20M" }))).toBe(EXACTLY_ONE);
  });

  it("counts a name's characters: 80 emoji are fine, 81 are not, blank has nothing visible", async () => {
    expect((await validateCreate(prompt({ name: PARROTS(80) }), ctx)).ok).toBe(true);
    expect(await problem(prompt({ name: PARROTS(81) }))).toBe('"name" must be 1 to 80 characters long; got 81.');
    expect(await problem(prompt({ name: "   " }))).toBe(
      '"name" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.',
    );
  });

  it("counts a text's and a command's characters the same way", async () => {
    expect((await validateCreate(prompt({ text: PARROTS(4000) }), ctx)).ok).toBe(true);
    expect(await problem(prompt({ text: PARROTS(4001) }))).toBe('"text" must be 1 to 4000 characters long; got 4001.');
    expect(await problem(prompt({ text: "" }))).toBe('"text" must not be blank.');
    expect((await validateCreate(watch({ command: PARROTS(8000) }), ctx)).ok).toBe(true);
    expect(await problem(watch({ command: PARROTS(8001) }))).toBe('"command" must be 1 to 8000 characters long; got 8001.');
  });

  it("keeps a prompt's and a watcher's fields apart", async () => {
    expect(await problem(prompt({ command: "echo hi" }))).toBe(PROMPT_NO_COMMAND);
    expect(await problem(prompt({ timeoutSeconds: 60 }))).toBe(TIMEOUT_WATCHERS_ONLY);
    expect(await problem(prompt({ text: undefined }))).toBe('A prompt job needs "text": what the agent should do, such as "Summarise my inbox".');
    expect(await problem(watch({ text: "hi" }))).toBe(WATCHER_NO_TEXT);
    expect(await problem(watch({ command: undefined }))).toBe('A watcher needs "command": a /bin/sh script that prints only when its condition holds.');
  });

  it("wants a watcher's timeout a whole number of seconds from 1 to 3600", async () => {
    expect(await problem(watch({ timeoutSeconds: 0 }))).toBe(timeoutSentence(0));
    expect(await problem(watch({ timeoutSeconds: 3601 }))).toBe(timeoutSentence(3601));
    expect(await problem(watch({ timeoutSeconds: 2.5 }))).toBe(timeoutSentence(2.5));
  });

  it("passes on the cron parser's sentence, and says when an expression never fires", async () => {
    expect(await problem(prompt({ cron: "0 8 * *" }))).toBe(
      'Invalid cron expression "0 8 * *": it has 4 fields; use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily".',
    );
    expect(await problem(prompt({ cron: "0 0 30 2 *" }))).toBe(
      'The cron expression "0 0 30 2 *" never fires within 5 years; check its day-of-month, month and day-of-week fields.',
    );
  });

  it("reports the name before the schedule, and the schedule before the kind's fields", async () => {
    expect(await problem(prompt({ name: "", cron: undefined }))).toBe(
      '"name" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.',
    );
    expect(await problem(prompt({ cron: undefined, command: "echo hi" }))).toBe(EXACTLY_ONE);
  });
});

describe("validateEdit", () => {
  const promptSpec: JobSpec = {
    ...specDefaults(),
    name: "Inbox summary",
    kind: "prompt",
    schedule: { type: "cron", cron: "0 8 * * 1-5" },
    text: "Summarise my inbox",
  };
  const watcherSpec: JobSpec = {
    ...specDefaults(),
    name: "Price check",
    kind: "watcher",
    schedule: { type: "cron", cron: "*/10 * * * *" },
    command: "curl -s https://example.com/price",
  };
  const edit = (current: JobSpec, input: Parameters<typeof validateEdit>[1]) => validateEdit(current, input, ctx);
  async function editProblem(current: JobSpec, input: Parameters<typeof validateEdit>[1]): Promise<string> {
    const r = await edit(current, input);
    if (r.ok) throw new Error(`expected a sentence, got ${JSON.stringify(r.value)}`);
    return r.error;
  }

  it("changes nothing and keeps the schedule for an empty edit", async () => {
    expect(await edit(promptSpec, {})).toStrictEqual({ ok: true, value: { spec: promptSpec, nextRunAt: null, scheduleChanged: false, reopened: false } });
  });

  it("changes only the fields given, trimming the name, without touching the current spec", async () => {
    const before = structuredClone(promptSpec);
    expect(await edit(promptSpec, { name: "  Morning inbox ", text: "Summarise my inbox briefly" })).toStrictEqual({
      ok: true,
      value: { spec: { ...promptSpec, name: "Morning inbox", text: "Summarise my inbox briefly" }, nextRunAt: null, scheduleChanged: false, reopened: false },
    });
    expect(promptSpec).toStrictEqual(before);
  });

  it("gives a new schedule its next run from now: cron, at (a cron job becoming a one-off) and delay", async () => {
    expect(await edit(promptSpec, { cron: "30 7 * * *" })).toStrictEqual({
      ok: true,
      value: {
        spec: { ...promptSpec, schedule: { type: "cron", cron: "30 7 * * *" } },
        nextRunAt: ms("2026-09-28T05:30:00Z"),
        scheduleChanged: true,
        reopened: false,
      },
    });
    expect(await edit(promptSpec, { at: "2026-10-01T18:00" })).toStrictEqual({
      ok: true,
      value: {
        spec: { ...promptSpec, schedule: { type: "at", at: ms("2026-10-01T16:00:00Z") } },
        nextRunAt: ms("2026-10-01T16:00:00Z"),
        scheduleChanged: true,
        reopened: false,
      },
    });
    const delayed = await edit(watcherSpec, { delay: "PT1H" });
    expect(delayed.ok && [delayed.value.spec.schedule, delayed.value.nextRunAt]).toStrictEqual([{ type: "at", at: NOW + HOUR }, NOW + HOUR]);
  });

  it("takes at most one of at, cron and delay, with the one sentence of that rule", async () => {
    const one = 'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".';
    expect(await editProblem(promptSpec, { at: "2026-12-01T09:00", cron: "0 9 * * *" })).toBe(one);
    expect(await editProblem(promptSpec, { cron: "0 9 * * *", delay: "PT1H" })).toBe(one);
  });

  it("checks a new schedule as create does", async () => {
    expect(await editProblem(promptSpec, { at: "2026-09-27T09:00" })).toBe('"at" must be in the future; 2026-09-27 09:00 in Europe/Berlin was 3 hours ago.');
    expect(await editProblem(promptSpec, { cron: "0 0 30 2 *" })).toBe(
      'The cron expression "0 0 30 2 *" never fires within 5 years; check its day-of-month, month and day-of-week fields.',
    );
    expect(await editProblem(promptSpec, { delay: "PT30S" })).toBe('"delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "PT30S".');
  });

  it("checks lengths in characters as create does", async () => {
    expect((await edit(promptSpec, { name: PARROTS(80) })).ok).toBe(true);
    expect(await editProblem(promptSpec, { name: PARROTS(81) })).toBe('"name" must be 1 to 80 characters long; got 81.');
    expect(await editProblem(promptSpec, { text: PARROTS(4001) })).toBe('"text" must be 1 to 4000 characters long; got 4001.');
    expect(await editProblem(watcherSpec, { command: "" })).toBe('"command" must not be blank.');
  });

  it("keeps a prompt's and a watcher's fields apart", async () => {
    expect(await editProblem(promptSpec, { command: "echo hi" })).toBe(PROMPT_NO_COMMAND);
    expect(await editProblem(promptSpec, { timeoutSeconds: 60 })).toBe(TIMEOUT_WATCHERS_ONLY);
    expect(await editProblem(watcherSpec, { text: "hi" })).toBe(WATCHER_NO_TEXT);
    expect(await editProblem(watcherSpec, { timeoutSeconds: 0 })).toBe(timeoutSentence(0));
    expect(await edit(watcherSpec, { command: "echo up", timeoutSeconds: 600 })).toStrictEqual({
      ok: true,
      value: { spec: { ...watcherSpec, command: "echo up", timeoutSeconds: 600 }, nextRunAt: null, scheduleChanged: false, reopened: false },
    });
  });
});

describe("validateCreate and validateEdit with a schedule the words read", () => {
  const words = { name: "Review", kind: "prompt", text: "Review the sprint" } as const;

  it("store the value as it was read, its ends as said, with no schedule field in the input", async () => {
    const read = await readSchedule("every other tuesday at 10 for 3 times review", { zone: ctx.zone, now: NOW, recurring: true });
    if (!read.ok) throw new Error(read.message);
    const r = await validateCreate(words, ctx, read.value);
    expect(r).toMatchObject({
      ok: true,
      value: { spec: { schedule: { type: "rule", rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-09-29T10:00" }, runsLeft: 3, until: null } },
    });
    // An edit keeps the ends the words did not say.
    const current: JobSpec = { ...specDefaults(), name: "Review", kind: "prompt", text: "x", schedule: { type: "cron", cron: "0 8 * * *" }, runsLeft: 7 };
    const cron = await readSchedule("every day at 9", { zone: ctx.zone, now: NOW, recurring: true });
    if (!cron.ok) throw new Error(cron.message);
    const edited = await validateEdit(current, {}, ctx, cron.value);
    expect(edited).toMatchObject({ ok: true, value: { spec: { schedule: { type: "cron", cron: "0 9 * * *" }, runsLeft: 7 }, scheduleChanged: true } });
  });

  it("refuse a value beside a schedule field, and a one-off that has passed since it was read", async () => {
    const read = await readSchedule("every day at 9", { zone: ctx.zone, now: NOW, recurring: true });
    if (!read.ok) throw new Error(read.message);
    expect(await validateCreate({ ...words, cron: "0 8 * * *" }, ctx, read.value)).toEqual({ ok: false, error: EXACTLY_ONE });
    const once = { schedule: { type: "at", at: NOW + 10 * MIN }, ends: { until: null, runsLeft: null } } as const;
    expect(await validateCreate(words, { ...ctx, now: NOW + 20 * MIN }, once)).toEqual({
      ok: false,
      error: '"at" must be in the future; 2026-09-27 12:25 in Europe/Berlin was 10 minutes ago.',
    });
  });
});
