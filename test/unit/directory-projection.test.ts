/**
 * The directory's projection (src/directory/projection.ts) and its read-time next run (src/directory/read.ts),
 * pure: which rows a chat writes, which change a fire leaves unwritten, and a cron job's next run computed from
 * its schedule once the stored one has passed.
 */
import { describe, expect, it } from "vitest";
import { type ChatFacts, diff, type JobFacts, project } from "../../src/directory/projection";
import { effectiveNext } from "../../src/directory/read";

const chat: ChatFacts = { chatId: "42", ownZone: null, zone: "UTC", blocked: false };
const cron: JobFacts = {
  id: "abcde",
  name: "Inbox",
  kind: "prompt",
  schedule: { type: "cron", cron: "0 8 * * *" },
  enabled: true,
  quarantined: false,
  nextRunAt: Date.UTC(2026, 8, 28, 8),
  lastStatus: null,
  hook: null,
};
const oneOff: JobFacts = { ...cron, id: "fghjk", name: "Dentist", schedule: { type: "at", at: Date.UTC(2026, 8, 28, 9) }, nextRunAt: Date.UTC(2026, 8, 28, 9) };
const remembered = (chatFacts: ChatFacts, jobs: JobFacts[]) => new Map(project(chatFacts, jobs).map((p) => [p.key, p.fingerprint]));

describe("project", () => {
  it("projects nothing for a chat with no job, no zone of its own and no block", () => {
    expect(project(chat, [])).toEqual([]);
    expect(project({ ...chat, ownZone: "Europe/Berlin", zone: "Europe/Berlin" }, []).map((p) => p.row)).toEqual([
      { chatId: "42", timeZone: "Europe/Berlin", jobs: 0, nextRunAt: null, blocked: false },
    ]);
  });

  it("writes a job's row and the chat's with the soonest next run", () => {
    const rows = project(chat, [cron, oneOff]).map((p) => [p.key, p.row]);
    expect(rows).toEqual([
      [
        "job:abcde",
        {
          chatId: "42",
          jobId: "abcde",
          name: "Inbox",
          kind: "prompt",
          category: "recurring",
          schedule: '{"cron":"0 8 * * *"}',
          nextRunAt: Date.UTC(2026, 8, 28, 8),
          enabled: true,
          lastStatus: null,
        },
      ],
      [
        "job:fghjk",
        {
          chatId: "42",
          jobId: "fghjk",
          name: "Dentist",
          kind: "prompt",
          category: "one-time",
          schedule: '{"at":"2026-09-28T09:00:00.000Z"}',
          nextRunAt: Date.UTC(2026, 8, 28, 9),
          enabled: true,
          lastStatus: null,
        },
      ],
      ["chat", { chatId: "42", timeZone: null, jobs: 2, nextRunAt: Date.UTC(2026, 8, 28, 8), blocked: false }],
    ]);
  });
});

describe("a supergroup that was a basic group", () => {
  it("writes the move the webhook reads, once, with or without jobs, and nothing for it once the old chat forgot its rows", () => {
    const supergroup: ChatFacts = { chatId: "-1004012345678", ownZone: null, zone: "UTC", blocked: false, movedFrom: "-4012345678" };
    expect(project(supergroup, []).map((p) => [p.key, p.table, p.row])).toEqual([
      ["moved", "moves", { toChatId: "-1004012345678", fromChatId: "-4012345678" }],
    ]);
    const written = remembered(supergroup, [cron]);
    expect(diff(project(supergroup, [cron, oneOff]), written).upserts.map((p) => p.key)).toEqual(["job:fghjk", "chat"]);
    // The old group's object, emptied by the move, removes every row it wrote.
    expect(diff(project({ ...chat, chatId: "-4012345678" }, []), remembered({ ...chat, chatId: "-4012345678" }, [cron]))).toEqual({
      upserts: [],
      removals: ["job:abcde", "chat"],
    });
  });
});

describe("diff", () => {
  it("leaves a fire unwritten: a cron job's next run moving, a one-off claimed", () => {
    const before = remembered(chat, [cron, oneOff]);
    const fired = [
      { ...cron, nextRunAt: Date.UTC(2026, 8, 29, 8) },
      { ...oneOff, nextRunAt: null },
    ];
    expect(diff(project(chat, fired), before)).toEqual({ upserts: [], removals: [] });
  });

  it("writes a rule job's schedule as a Job's, recurring, and leaves its fire unwritten as a cron job's", () => {
    const rule: JobFacts = { ...cron, id: "r2v9x", schedule: { type: "rule", rrule: "FREQ=DAILY;INTERVAL=3", start: "2026-09-28T09:00" } };
    const [row] = project(chat, [rule]);
    expect(row?.row).toMatchObject({ category: "recurring", schedule: '{"rrule":"FREQ=DAILY;INTERVAL=3","start":"2026-09-28T09:00"}' });
    expect(diff(project(chat, [{ ...rule, nextRunAt: Date.UTC(2026, 9, 1, 9) }]), remembered(chat, [rule])).upserts).toEqual([]);
  });

  it("writes a status that changed, a pause, a zone that moves cron jobs, and removes a deleted job", () => {
    const before = remembered(chat, [cron, oneOff]);
    const keys = (jobs: JobFacts[], facts = chat) => diff(project(facts, jobs), before).upserts.map((p) => p.key);
    expect(keys([{ ...cron, lastStatus: "delivered" }, oneOff])).toEqual(["job:abcde"]);
    expect(keys([cron, { ...oneOff, enabled: false, nextRunAt: null }])).toEqual(["job:fghjk"]);
    expect(keys([cron, oneOff], { ...chat, ownZone: "Asia/Tokyo", zone: "Asia/Tokyo" })).toEqual(["job:abcde", "chat"]);
    expect(diff(project(chat, [cron]), before)).toEqual({ upserts: [expect.objectContaining({ key: "chat" })], removals: ["job:fghjk"] });
    expect(diff(project(chat, []), before)).toEqual({ upserts: [], removals: ["job:abcde", "job:fghjk", "chat"] });
  });
});

describe("effectiveNext", () => {
  const now = Date.UTC(2026, 8, 28, 12);
  it("keeps a stored next run that is still ahead", () => {
    expect(effectiveNext({ schedule: { cron: "0 8 * * *" }, next: Date.UTC(2026, 8, 29, 8), enabled: true }, "UTC", now)).toBe(Date.UTC(2026, 8, 29, 8));
  });
  it("computes a cron job's next run in its chat's zone once the stored one has passed", () => {
    expect(effectiveNext({ schedule: { cron: "0 8 * * *" }, next: Date.UTC(2026, 8, 20, 8), enabled: true }, "UTC", now)).toBe(Date.UTC(2026, 8, 29, 8));
    // 08:00 in Tokyo is 23:00 UTC the day before.
    expect(effectiveNext({ schedule: { cron: "0 8 * * *" }, next: Date.UTC(2026, 8, 20, 8), enabled: true }, "Asia/Tokyo", now)).toBe(
      Date.UTC(2026, 8, 28, 23),
    );
  });
  it("computes a rule job's next run the same way, from its local start in the chat's zone", () => {
    const schedule = { rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start: "2026-09-15T10:00" };
    // Every other Tuesday at 10:00 from 15 Sep: 29 Sep next, 08:00 UTC in Berlin's summer.
    expect(effectiveNext({ schedule, next: Date.UTC(2026, 8, 15, 8), enabled: true }, "Europe/Berlin", now)).toBe(Date.UTC(2026, 8, 29, 8));
  });
  it("shows an overdue one-off as it is, and nothing for a paused job", () => {
    expect(effectiveNext({ schedule: { at: "2026-09-28T11:00:00.000Z" }, next: Date.UTC(2026, 8, 28, 11), enabled: true }, "UTC", now)).toBe(
      Date.UTC(2026, 8, 28, 11),
    );
    expect(effectiveNext({ schedule: { cron: "0 8 * * *" }, next: null, enabled: false }, "UTC", now)).toBeNull();
  });
});
