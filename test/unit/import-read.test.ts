/**
 * Reading the stores Cuckoo replaces (issue 16), pure: what each format's reader makes of the loosely typed
 * files it is given (the entries per chat and the sentences of what it left out). The chat's object then
 * applies the rules of a create; the whole path is tested in test/worker/import.test.ts.
 */
import { describe, expect, it } from "vitest";
import { planImport, requestProblem } from "../../src/import";
import { nameFrom } from "../../src/import/plan";

const entries = (plan: ReturnType<typeof planImport>, chatId: string) => plan.chats.get(chatId)?.entries ?? [];

describe("playa", () => {
  const job = (over: Record<string, unknown>) => ({
    id: "k7m2q",
    target: "42",
    name: "N",
    kind: "prompt",
    schedule: { cron: "0 9 * * *" },
    text: "T",
    ...over,
  });

  it("reads .NET's instants (seven fractional digits) and enum numbers, and a chat's zone from its settings", () => {
    const plan = planImport({
      format: "playa",
      data: { version: 1, jobs: [job({ kind: 2, text: null, command: "true", schedule: { at: "2031-01-02T03:04:05.1234567+02:00", cron: null } })] },
      settings: { version: 1, chats: { "42": { timeZone: "Asia/Tokyo" }, "43": {} } },
    });
    expect(plan.problems).toEqual([]);
    expect(plan.chats.get("42")).toEqual({
      zone: "Asia/Tokyo",
      entries: [
        {
          sourceId: "playa:k7m2q",
          label: 'Playa job "k7m2q"',
          job: { name: "N", kind: "watcher", command: "true" },
          when: { at: "2031-01-02T03:04:05.123+02:00" },
          enabled: true,
        },
      ],
    });
  });

  it("says so when the version is not 1, the settings are not Playa's, or a schedule has both or neither", () => {
    const plan = planImport({
      format: "playa",
      data: { version: 2, jobs: [job({ schedule: { at: "2031-01-01", cron: "* * * * *" } }), job({ id: "p3xz9", schedule: {} })] },
      settings: [],
    });
    expect(plan.problems).toEqual([
      "Playa's jobs.json says version 2; it was read as version 1.",
      '"settings" is not Playa\'s chat-settings.json ({ "version": 1, "chats": { "<chat id>": { "timeZone": "Europe/Berlin" } } }); no zones were read.',
      'Playa job "k7m2q" needs exactly one of "schedule.at" and "schedule.cron"; it was left out.',
      'Playa job "p3xz9" needs exactly one of "schedule.at" and "schedule.cron"; it was left out.',
    ]);
    expect(plan.chats.size).toBe(0);
  });

  it("keeps Cronos's cron as it is, turns one that ANDs its day fields into the rule Cronos meant, and leaves out one no rule says", () => {
    const plan = planImport({
      format: "playa",
      data: {
        version: 1,
        jobs: [
          job({ id: "a", schedule: { cron: "0 22-2 * * *" } }),
          job({ id: "b", schedule: { cron: "0 9 ? * MON#1" } }),
          job({ id: "c", schedule: { cron: " 0 0 13 * 5 " } }),
          job({ id: "d", schedule: { cron: "*/30 9-17 1,15 * MON-FRI" } }),
          job({ id: "e", schedule: { cron: "0 9 LW * FRI" } }),
          job({ id: "f", schedule: { cron: "0 9 L * 61" } }),
        ],
      },
    });
    expect(entries(plan, "42").map((e) => [e.sourceId, e.when, e.fromCronos])).toEqual([
      ["playa:a", { cron: "0 22-2 * * *" }, undefined],
      ["playa:b", { cron: "0 9 ? * MON#1" }, undefined],
      ["playa:c", { rrule: "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR;BYHOUR=0;BYMINUTE=0" }, "0 0 13 * 5"],
      // An interval expression keeps its second pass at a fall-back: FREQ=MINUTELY.
      ["playa:d", { rrule: "FREQ=MINUTELY;BYMONTHDAY=1,15;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,30" }, "*/30 9-17 1,15 * MON-FRI"],
      // A cron that does not parse goes on as it is: the chat's object says why.
      ["playa:f", { cron: "0 9 L * 61" }, undefined],
    ]);
    expect(plan.problems).toEqual([
      'Playa job "e": Cronos runs "0 9 LW * FRI" only on days that match both its day-of-month and its day-of-week, and no recurrence rule can say "the weekday nearest" a day and a weekday as well; rewrite it as two jobs or a rule. It was left out.',
    ]);
  });
});

describe("acpbot", () => {
  it("takes `once: true` with the instant in nextRunAt, and a disabled cron job as paused", () => {
    const plan = planImport({
      format: "acpbot",
      chatId: "42",
      data: [
        { id: "a", prompt: "Ping", once: true, nextRunAt: "2031-01-01T00:00:00Z", enabled: true },
        { id: "b", prompt: "Pong", cron: "0 9 * * *", enabled: false },
      ],
    });
    expect(plan.problems).toEqual([]);
    expect(entries(plan, "42").map((e) => [e.sourceId, e.when, e.enabled, e.cronWasUtc ?? false])).toEqual([
      ["acpbot:a", { at: "2031-01-01T00:00:00Z" }, true, false],
      ["acpbot:b", { cron: "0 9 * * *" }, false, true],
    ]);
  });
});

describe("commitments", () => {
  it("reads CRLF lines, `content` for text, `date` for due, a date-time's day, and numeric ids", () => {
    const text = ['{"id":1,"content":"A","status":"Open","date":"2027-01-02T10:00:00Z"}', '{"id":"b","text":"B","status":"open","due":"2027-01-03"}', ""].join(
      "\r\n",
    );
    const plan = planImport({ format: "commitments", chatId: "42", data: text });
    expect(plan.problems).toEqual([]);
    expect(entries(plan, "42").map((e) => [e.sourceId, e.job.name, e.when, e.enabled])).toEqual([
      ["commitments:1", "A", { at: "2027-01-02" }, true],
      ["commitments:b", "B", { at: "2027-01-03" }, true],
    ]);
  });

  it("refuses data that is not text", () => {
    expect(planImport({ format: "commitments", chatId: "42", data: [{}] }).problems).toEqual([
      '"data" must be the text of commitments.jsonl (one JSON record a line); nothing was imported.',
    ]);
  });
});

describe("the request and names", () => {
  it("needs chatId for acpbot and commitments, and takes settings only for playa", () => {
    expect(requestProblem({ format: "playa", data: {} })).toBeNull();
    expect(requestProblem({ format: "acpbot", data: [], chatId: "42" })).toBeNull();
    expect(requestProblem({ format: "acpbot", data: [] })).toMatch(/^"chatId" is required for the acpbot format/);
    expect(requestProblem({ format: "acpbot", data: [], chatId: "42", settings: {} })).toMatch(/^"settings" applies only to the playa format/);
  });

  it("names a job after the first line of a text, whitespace collapsed, cut with …", () => {
    expect(nameFrom("\n  Call   the\tdentist  \nsecond line", 80)).toBe("Call the dentist");
    expect(nameFrom("abcdef", 4)).toBe("abc…");
    expect(nameFrom("🦜🦜🦜🦜🦜", 4)).toBe("🦜🦜🦜…");
  });
});
