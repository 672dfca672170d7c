/**
 * What a missed run does (docs/time.md#missed-runs), as pure functions: a job's `missed` and `grace` read and refused, the
 * firing core's decision for each policy when the chat's object comes back after occurrences went by (skip, all, ask,
 * and a one-off's skip and ask), Run now's late run, the chat's message about them and its buttons. Every instant is
 * fixed; the chat's zone is Europe/Berlin (CEST, UTC+2).
 */
import { describe, expect, it } from "vitest";
import { missedNotice } from "../../src/chat/missed-notice";
import { decideFire, type FireContext, missedRun } from "../../src/jobs/fire";
import { graceText, parseGrace, readMissed } from "../../src/jobs/missed";
import type { JobRecord, RunRecord } from "../../src/jobs/records";
import { missedButtons, parseButton } from "../../src/telegram/buttons";
import { ENGLISH, textsOf } from "../../src/texts";
import { jobRecord } from "./records";

const ms = (iso: string): number => Date.parse(iso);
const H = 3_600_000;
const ctx = (now: number): FireContext => ({ chatId: "123456789", zone: "Europe/Berlin", now, deliverable: true, defaultTimeout: 30 });

/** Hourly on the hour; due 08:00 Berlin (06:00Z) on 26 Sep. */
const DUE = ms("2026-09-26T06:00:00Z");
const hourly = (over: Partial<JobRecord> = {}): JobRecord =>
  jobRecord({
    id: "p3xz9",
    name: "Log digest",
    schedule: { type: "cron", cron: "0 * * * *" },
    text: "Digest the logs",
    createdAt: DUE - 86_400_000,
    nextRunAt: DUE,
    ...over,
  });
const oneOff = (over: Partial<JobRecord> = {}): JobRecord =>
  jobRecord({
    id: "k7m2q",
    name: "Call the dentist",
    schedule: { type: "at", at: DUE },
    text: "Call the dentist",
    createdAt: DUE - 86_400_000,
    nextRunAt: DUE,
    ...over,
  });

const dues = (runs: readonly RunRecord[] | undefined) => (runs ?? []).map((r) => `${new Date(r.dueAt).toISOString().slice(11, 16)} ${r.status} ${r.detail}`);

describe("a job's missed and grace", () => {
  it("reads grace as an ISO 8601 duration of days, hours, minutes and seconds, and shows it back", () => {
    expect(["PT0S", "PT1M", "pt5m", "PT1H30M", "P1D", "PT90S", "PT86400S"].map(parseGrace)).toStrictEqual([0, 60, 300, 5400, 86_400, 90, 86_400]);
    expect(["", "P", "PT", "5m", "P1M", "PT-1M", "PT1.5M", "P1DT"].map(parseGrace)).toStrictEqual([null, null, null, null, null, null, null, null]);
    expect([0, 60, 5400, 86_400, 90, 3661].map(graceText)).toStrictEqual(["PT0S", "PT1M", "PT1H30M", "P1D", "PT1M30S", "PT1H1M1S"]);
  });

  it("refuses with one sentence each: an unknown policy, a grace past a day, all for a one-off, either for a job only its hook runs", () => {
    const current = { missed: "once" as const, graceSeconds: 60 };
    expect(readMissed({ missed: "later" }, "cron", current)).toStrictEqual({ ok: false, error: `"missed" must be "once", "skip", "all" or "ask".` });
    expect(readMissed({ grace: "P2D" }, "cron", current)).toStrictEqual({
      ok: false,
      error: `"grace" must be an ISO 8601 duration from PT0S to P1D, such as PT5M or PT2H; got "P2D".`,
    });
    expect(readMissed({ missed: "all" }, "at", current)).toStrictEqual({
      ok: false,
      error: `"missed": "all" is for recurring jobs: a one-off runs once; use "once", "skip" or "ask".`,
    });
    expect(readMissed({ grace: "PT5M" }, "hook", current)).toStrictEqual({
      ok: false,
      error: `A job only its hook runs has no time to miss: "missed" and "grace" do not apply.`,
    });
    expect(readMissed({ missed: "ask", grace: "PT15M" }, "rule", current)).toStrictEqual({ ok: true, missed: "ask", graceSeconds: 900 });
    // A recurring job that becomes a one-off cannot keep all.
    expect(readMissed({}, "at", { missed: "all", graceSeconds: 60 })).toStrictEqual({ ok: true, missed: "once", graceSeconds: 60 });
  });
});

describe("decideFire after the bot was offline from 08:00 to 11:30 (hourly)", () => {
  const now = ms("2026-09-26T09:30:00Z");

  it("skip: runs none, records 08:00 to 11:00 skipped (missed), and goes on at 12:00", () => {
    const decision = decideFire(hourly({ missed: "skip" }), ctx(now));
    expect(decision.action).toBe("missed");
    const d = decision as Extract<typeof decision, { action: "missed" }>;
    expect(dues(d.skipped)).toStrictEqual(["06:00 skipped missed", "07:00 skipped missed", "08:00 skipped missed", "09:00 skipped missed"]);
    expect([d.ask, d.drop, d.job.nextRunAt, d.job.runningRunId]).toStrictEqual([null, false, ms("2026-09-26T10:00:00Z"), null]);
  });

  it("all: runs 08:00 now, late, and comes back for 09:00 when it ends; never skipped as still running", () => {
    const decision = decideFire(hourly({ missed: "all" }), ctx(now));
    if (decision.action !== "claim") throw new Error(decision.action);
    expect([decision.run.runId, decision.run.late, decision.job.nextRunAt, decision.skipped]).toStrictEqual([`p3xz9:${DUE}`, true, DUE + H, undefined]);
    // The next step, once that run settled: 09:00 (late), then 10:00, then 11:00 …
    const next = decideFire({ ...decision.job, runningRunId: null }, ctx(now + 60_000));
    if (next.action !== "claim") throw new Error(next.action);
    expect([next.run.dueAt, next.run.late, next.job.nextRunAt]).toStrictEqual([DUE + H, true, DUE + 2 * H]);
  });

  it("all: runs at most the 10 latest, recording the earlier ones skipped", () => {
    // Down 15 hours: 08:00 … 22:00 missed; 13:00 to 22:00 run, 08:00 to 12:00 are skipped.
    const decision = decideFire(hourly({ missed: "all" }), ctx(DUE + 14 * H + 30 * 60_000));
    if (decision.action !== "claim") throw new Error(decision.action);
    expect(dues(decision.skipped)).toStrictEqual([
      "06:00 skipped missed",
      "07:00 skipped missed",
      "08:00 skipped missed",
      "09:00 skipped missed",
      "10:00 skipped missed",
    ]);
    expect([decision.run.dueAt, decision.job.nextRunAt]).toStrictEqual([DUE + 5 * H, DUE + 6 * H]);
  });

  it("ask: runs none, asks about 08:00 to 11:00, and goes on at 12:00", () => {
    const decision = decideFire(hourly({ missed: "ask" }), ctx(now));
    expect(decision).toMatchObject({
      action: "missed",
      skipped: [],
      drop: false,
      ask: { first: DUE, last: DUE + 3 * H, total: 4, shown: [DUE, DUE + H, DUE + 2 * H, DUE + 3 * H] },
      job: { nextRunAt: DUE + 4 * H, enabled: true },
    });
  });

  it("ask and skip: an occurrence within grace runs as usual beside them", () => {
    const at = DUE + 4 * H + 30_000;
    const asked = decideFire(hourly({ missed: "ask" }), ctx(at));
    if (asked.action !== "claim") throw new Error(asked.action);
    expect([asked.run.dueAt, asked.run.late, asked.ask?.total, asked.job.nextRunAt]).toStrictEqual([DUE + 4 * H, false, 4, DUE + 5 * H]);
    const skipped = decideFire(hourly({ missed: "skip" }), ctx(at));
    if (skipped.action !== "claim") throw new Error(skipped.action);
    expect([skipped.run.dueAt, skipped.skipped?.length]).toStrictEqual([DUE + 4 * H, 4]);
  });

  it("a pause is not a miss, and an undeliverable chat still holds the job", () => {
    expect(decideFire(hourly({ missed: "ask" }), { ...ctx(now), deliverable: false }).action).toBe("hold");
  });
});

describe("a one-off that was missed", () => {
  const now = DUE + 2 * H;

  it("once: runs late; skip: is dropped; ask: is paused and the chat asked", () => {
    const once = decideFire(oneOff(), ctx(now));
    expect([once.action, once.action === "claim" && once.run.late]).toStrictEqual(["claim", true]);
    expect(decideFire(oneOff({ missed: "skip" }), ctx(now))).toMatchObject({ action: "missed", drop: true, ask: null });
    expect(decideFire(oneOff({ missed: "ask" }), ctx(now))).toMatchObject({
      action: "missed",
      drop: false,
      ask: { first: DUE, last: DUE, total: 1, shown: [DUE] },
      job: { enabled: false, nextRunAt: null },
    });
  });

  it("within its grace runs as usual whatever the policy", () => {
    expect(decideFire(oneOff({ missed: "skip", graceSeconds: 3 * 3600 }), ctx(now)).action).toBe("claim");
  });
});

describe("Run now under the message", () => {
  it("claims the latest, late, not manual, its line counting them; a paused one-off is no longer paused", () => {
    const decision = missedRun(hourly(), ctx(DUE + 4 * H), DUE + 3 * H, 4);
    if (decision.action !== "claim") throw new Error(decision.action);
    expect([decision.run.runId, decision.run.manual, decision.run.late]).toStrictEqual([`p3xz9:${DUE + 3 * H}`, false, true]);
    const message = decision.run.payload?.kind === "prompt" ? decision.run.payload.message : null;
    expect(message?.text).toBe(
      '[Scheduled job "Log digest" (p3xz9)]\n4 runs were missed while the bot was offline; this is the latest (due 11:00).\nDigest the logs',
    );
    expect(message?.missed).toBe(4);
    expect(decision.job.nextRunAt).toBe(DUE);
    const one = missedRun(oneOff({ enabled: false, nextRunAt: null }), ctx(DUE + H), DUE, 1);
    expect([one.job.enabled, one.run.late, one.run.payload?.kind === "prompt" && one.run.payload.message.text.split("\n")[1]]).toStrictEqual([
      true,
      true,
      "This was due at 26 Sep 08:00; the bot was offline.",
    ]);
  });
});

describe("the chat's message about missed runs", () => {
  const now = DUE + 7.5 * H;

  it("names the latest five, counts the earlier ones, and carries Run now and Skip", async () => {
    const decision = decideFire(hourly({ missed: "ask" }), ctx(now));
    if (decision.action !== "missed") throw new Error(decision.action);
    const notice = missedNotice(decision, "Europe/Berlin", now, ENGLISH.t);
    expect(notice?.markdown).toBe(
      "⏰ **Log digest** (`p3xz9`) missed 8 runs while the bot was offline: 3 earlier, 11:00, 12:00, 13:00, 14:00 and 15:00. Run it now?",
    );
    expect(notice?.buttons).toStrictEqual([
      [
        { text: "Run now", data: `mr:${DUE.toString(36)}:p3xz9:${DUE + 7 * H}` },
        { text: "Skip", data: `ms:${DUE.toString(36)}:p3xz9:${DUE + 7 * H}` },
      ],
    ]);
    const de = missedNotice(decision, "Europe/Berlin", now, await textsOf("de"));
    expect(de?.buttons?.[0]?.map((b) => b.text)).toStrictEqual(["Jetzt ausführen", "Überspringen"]);
  });

  it("says a dropped one-off in one line, and asks about a one-off by its time", () => {
    const dropped = decideFire(oneOff({ missed: "skip" }), ctx(DUE + H));
    if (dropped.action !== "missed") throw new Error(dropped.action);
    expect(missedNotice(dropped, "Europe/Berlin", DUE + H, ENGLISH.t)).toStrictEqual({
      markdown: "Skipped **Call the dentist** (`k7m2q`): it was due at 08:00 while the bot was offline.",
      buttons: null,
      dueAt: DUE,
      drop: true,
    });
    const asked = decideFire(oneOff({ missed: "ask" }), ctx(DUE + 26 * H));
    if (asked.action !== "missed") throw new Error(asked.action);
    expect(missedNotice(asked, "Europe/Berlin", DUE + 26 * H, ENGLISH.t)?.markdown).toBe(
      "⏰ **Call the dentist** (`k7m2q`) was due at 26 Sep 08:00 while the bot was offline. Run it now?",
    );
  });

  it("its buttons fit Telegram's 64 bytes and read back as the press they are", () => {
    const [[run, skip]] = missedButtons("p3xz9", 8_640_000_000_000, 8_640_000_000_000) as unknown as [[{ data: string }, { data: string }]];
    expect([run.data.length, skip.data.length].every((n) => n <= 64)).toBe(true);
    expect(parseButton(`mr:${DUE.toString(36)}:p3xz9:${DUE + H}`)).toStrictEqual({
      kind: "message",
      action: { act: "missedRun", first: DUE },
      runId: `p3xz9:${DUE + H}`,
      jobId: "p3xz9",
    });
    expect(parseButton(`ms:${DUE.toString(36)}:p3xz9:${DUE + H}`)).toMatchObject({ action: { act: "missedSkip", first: DUE } });
    expect(parseButton("mx:1:p3xz9:1")).toBeNull();
  });
});
