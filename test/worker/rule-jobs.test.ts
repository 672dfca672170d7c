/**
 * Rule jobs and jobs that end in workerd (docs/api.md#post-adminchatschatidjobs, Edit, End; docs/time.md Recurrence rules, Zone change; docs/api.md#how-a-job-fires):
 * created and edited through the admin API, fired by the alarm at exact instants (a rule through Berlin's
 * spring-forward gap fires once at 03:00), `runsLeft` counting only scheduled runs (run now does not), `until`
 * leaving no run after it, the last run's prompt marked, the job gone once that run settles, and a zone change
 * that keeps a rule's start as local time. Time moves through the object's own clock; the years are the next
 * one's by that clock, and DST days are computed for it. Chat ids 5200000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { type Job, jobListSchema, jobReply } from "../../src/schemas/jobs";
import { settleSent } from "./agent-helpers";
import { advanceTo, alarmOf, answerAs, badRequest, chatIds, clockOf, historyOf, must, noJob, queued, type Stub, send, spyQueue } from "./helpers";

const newChat = chatIds(5_200_000);
const DAY = 86_400_000;

/** A chat with a queue spy, its zone set; `year` is the next one by its clock. */
async function chatIn(zone: string | null): Promise<{ chatId: string; stub: Stub; year: number }> {
  const { chatId, stub } = newChat();
  await spyQueue(stub);
  if (zone) await must(stub.setTimeZone(chatId, zone));
  return { chatId, stub, year: new Date(await clockOf(stub)).getUTCFullYear() + 1 };
}

async function create(chatId: string, body: Record<string, unknown>): Promise<Job> {
  const res = await send("POST", `/admin/chats/${chatId}/jobs`, { name: "Review", kind: "prompt", text: "Review the sprint", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return answerAs(res, jobReply()).body.job;
}

const jobOf = async (chatId: string, id: string): Promise<Job> => (await send("GET", `/admin/chats/${chatId}/jobs/${id}`).as(jobReply())).body.job;

/** The last Sunday of `month` (1–12) in `year`, as its day of the month: Europe's DST days. */
function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month, 0));
  return last.getUTCDate() - last.getUTCDay();
}

/** `yyyy-MM-dd` of a day counted from the 1st of `month` (1–12): `day` past the month's end runs on. */
const isoDay = (year: number, month: number, day: number): string => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** Moves the clock to the job's next run, runs the alarm, and returns the prompt it sent then. */
async function fireNext(stub: Stub, chatId: string, id: string): Promise<PromptMessage> {
  const job = await jobOf(chatId, id);
  const dueAt = Date.parse(job.nextRunAt!);
  await advanceTo(stub, dueAt);
  const before = (await queued(stub)).length;
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  const sent = (await queued(stub)).slice(before).map((s) => s.body as PromptMessage);
  expect(sent.map((m) => m.key)).toEqual([`${id}:${dueAt}`]);
  return sent[0]!;
}

const header = (id: string) => `[Scheduled job "Review" (${id})]`;
const LAST = "This is the last scheduled run of this job.";

describe("a rule job", () => {
  it("is created with its rule and start, recurring, its COUNT as runsLeft, and its first run the rule's first instance", async () => {
    const { chatId, year } = await chatIn("Europe/Berlin");
    const job = await create(chatId, { rrule: "RRULE:FREQ=DAILY;INTERVAL=3;COUNT=4", start: `${year}-01-05 09:00` });
    expect(job).toMatchObject({
      category: "recurring",
      schedule: { rrule: "FREQ=DAILY;INTERVAL=3", start: `${year}-01-05T09:00` },
      until: null,
      runsLeft: 4,
      nextRunAt: `${year}-01-05T08:00:00.000Z`,
    });
  });

  it("is refused with the sentence of the rule it breaks, and nothing is stored", async () => {
    const { chatId, year } = await chatIn("Europe/Berlin");
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { name: "R", kind: "prompt", text: "x", rrule: "FREQ=DAILY" })).toEqual(
      badRequest(
        `"rrule" needs "start", its first local date-time in the chat's zone, such as "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "start": "2026-12-08T10:00".`,
      ),
    );
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { name: "R", kind: "prompt", text: "x", at: `${year}-01-05T09:00`, runsLeft: 3 })).toEqual(
      badRequest(`"runsLeft" applies only to recurring jobs (cron or rrule): a one-off runs once.`),
    );
    expect((await send("GET", `/admin/chats/${chatId}/jobs`).as(jobListSchema())).body.jobs).toEqual([]);
  });

  it("fires through Berlin's spring-forward gap once, at 03:00, then on at its wall times", async () => {
    const { chatId, stub, year } = await chatIn("Europe/Berlin");
    const sunday = lastSunday(year, 3);
    const saturday = isoDay(year, 3, sunday - 1);
    const day = (d: number) => isoDay(year, 3, d);
    // 02:00 and 02:30 each day; on the Sunday both lie in the gap (02:00 → 03:00 CEST).
    const job = await create(chatId, { rrule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=0,30", start: `${saturday}T02:00` });
    const expected = [
      `${saturday}T01:00:00.000Z`, // 02:00 CET
      `${saturday}T01:30:00.000Z`, // 02:30 CET
      `${day(sunday)}T01:00:00.000Z`, // both in the gap: once, at 03:00 CEST
      `${day(sunday + 1)}T00:00:00.000Z`, // 02:00 CEST
      `${day(sunday + 1)}T00:30:00.000Z`, // 02:30 CEST
    ];
    const fired: string[] = [];
    for (let i = 0; i < 4; i++) {
      const message = await fireNext(stub, chatId, job.id);
      fired.push(message.dueAt!);
      expect(await settleSent(stub, message.key, "delivered")).toBe(true);
    }
    expect(fired).toEqual(expected.slice(0, 4));
    expect((await jobOf(chatId, job.id)).nextRunAt).toBe(expected[4]);
  });
});

describe("a job that ends", () => {
  it("with runsLeft 3 runs exactly 3 scheduled times, run now in between not counted; the last prompt says so and the job is gone", async () => {
    const { chatId, stub, year } = await chatIn(null);
    const job = await create(chatId, { rrule: "FREQ=DAILY", start: `${year}-02-01T09:00`, runsLeft: 3 });
    const first = await fireNext(stub, chatId, job.id);
    expect(first.text).toBe(`${header(job.id)}\nReview the sprint`);
    expect(await settleSent(stub, first.key, "delivered")).toBe(true);
    expect(await jobOf(chatId, job.id)).toMatchObject({ runsLeft: 2, nextRunAt: `${year}-02-02T09:00:00.000Z` });

    // Run now: a manual run, not counted.
    const manual = await send("POST", `/admin/chats/${chatId}/jobs/${job.id}/run`).as(jobReply());
    expect(manual.body.job).toMatchObject({ runsLeft: 2, running: true, nextRunAt: `${year}-02-02T09:00:00.000Z` });
    const manualKey = (await queued(stub)).map((s) => (s.body as PromptMessage).key).at(-1)!;
    expect(await settleSent(stub, manualKey, "delivered")).toBe(true);
    expect(await jobOf(chatId, job.id)).toMatchObject({ runsLeft: 2, running: false });

    const second = await fireNext(stub, chatId, job.id);
    expect(second.text).toBe(`${header(job.id)}\nReview the sprint`);
    expect(await settleSent(stub, second.key, "delivered")).toBe(true);
    const third = await fireNext(stub, chatId, job.id);
    expect(third).toMatchObject({ dueAt: `${year}-02-03T09:00:00.000Z`, text: `${header(job.id)}\n${LAST}\nReview the sprint`, body: "Review the sprint" });
    // In flight, its last: no next run, nothing left.
    expect(await jobOf(chatId, job.id)).toMatchObject({ runsLeft: 0, nextRunAt: null, running: true });
    expect(await settleSent(stub, third.key, "delivered")).toBe(true);
    expect(await send("GET", `/admin/chats/${chatId}/jobs/${job.id}`)).toEqual(noJob(job.id));
    expect(await alarmOf(stub)).toBeNull();
    // 3 scheduled runs and 1 manual were sent, nothing else.
    expect((await queued(stub)).map((s) => (s.body as PromptMessage).key)).toEqual([first.key, manualKey, second.key, third.key]);
  });

  it("with until runs no occurrence after it: the run before it is the last", async () => {
    const { chatId, stub, year } = await chatIn("America/New_York");
    await advanceTo(stub, Date.parse(`${year}-06-01T00:00:00Z`));
    const job = await create(chatId, { cron: "0 9 * * *", until: `${year}-06-02` });
    // A date alone is the whole day there: until 2 June 23:59, kept as that local time.
    expect(await jobOf(chatId, job.id)).toMatchObject({ nextRunAt: `${year}-06-01T13:00:00.000Z`, until: `${year}-06-02T23:59`, runsLeft: null });
    const june1 = await fireNext(stub, chatId, job.id);
    expect(june1.text).toBe(`${header(job.id)}\nReview the sprint`);
    expect(await settleSent(stub, june1.key, "delivered")).toBe(true);
    const june2 = await fireNext(stub, chatId, job.id);
    expect(june2).toMatchObject({ dueAt: `${year}-06-02T13:00:00.000Z`, text: `${header(job.id)}\n${LAST}\nReview the sprint` });
    expect(await settleSent(stub, june2.key, "delivered")).toBe(true);
    expect(await send("GET", `/admin/chats/${chatId}/jobs/${job.id}`)).toEqual(noJob(job.id));
  });

  it("takes until as a local date-time, a date or an instant, keeps the local time, and a zone change keeps what it said", async () => {
    const { chatId, stub, year } = await chatIn("Europe/Berlin");
    await advanceTo(stub, Date.parse(`${year}-03-30T12:00:00Z`));
    const local = await create(chatId, { cron: "0 9 * * *", until: `${year}-03-31T18:00` });
    expect(local.until).toBe(`${year}-03-31T18:00`);
    // An instant is the minute it is in the chat's zone: 16:00Z is 18:00 in Berlin (CEST from the last Sunday of March).
    const instant = await create(chatId, { cron: "0 9 * * *", until: `${year}-03-31T16:00:30Z` });
    expect(instant.until).toBe(`${year}-03-31T18:00`);
    await send("DELETE", `/admin/chats/${chatId}/jobs/${instant.id}`);
    const edited = await send("PATCH", `/admin/chats/${chatId}/jobs/${local.id}`, { until: `${year}-03-31` }).as(jobReply());
    expect(edited.body.job).toMatchObject({ until: `${year}-03-31T23:59`, schedule: { cron: "0 9 * * *" } });
    // In Tokyo the end is still the end of 31 March, there: the run at 09:00 on the 31st is its last.
    await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    expect(await jobOf(chatId, local.id)).toMatchObject({ until: `${year}-03-31T23:59` });
    const last = await fireNext(stub, chatId, local.id);
    expect(last).toMatchObject({ dueAt: `${year}-03-31T00:00:00.000Z`, text: `${header(local.id)}\n${LAST}\nReview the sprint` });
  });

  it("is not resumed once nothing is left before its until, and an edit of its ends brings it back", async () => {
    const { chatId, stub, year } = await chatIn(null);
    const job = await create(chatId, { cron: "0 9 * * *", until: `${year}-03-02T12:00` });
    await send("POST", `/admin/chats/${chatId}/jobs/${job.id}/pause`);
    await advanceTo(stub, Date.parse(`${year}-03-02T10:00:00Z`));
    expect(await send("POST", `/admin/chats/${chatId}/jobs/${job.id}/resume`)).toEqual({
      status: 409,
      body: {
        error: {
          code: "conflict",
          message: `Job ${job.id} (Review) has no scheduled run left: its next run would be after its end (until 2 Mar 12:00). Give it a later "until" or more "runsLeft" (edit it), or cancel it.`,
        },
      },
    });
    expect((await send("PATCH", `/admin/chats/${chatId}/jobs/${job.id}`, { until: null, runsLeft: 2 }).as(jobReply())).body.job).toMatchObject({
      until: null,
      runsLeft: 2,
      nextRunAt: null,
    });
    expect((await send("POST", `/admin/chats/${chatId}/jobs/${job.id}/resume`).as(jobReply())).body.job).toMatchObject({
      runsLeft: 2,
      nextRunAt: `${year}-03-03T09:00:00.000Z`,
    });
  });

  it("keeps the history of its runs until it is gone", async () => {
    const { chatId, stub, year } = await chatIn(null);
    const job = await create(chatId, { rrule: "FREQ=HOURLY;INTERVAL=2;COUNT=2", start: `${year}-04-01T08:00` });
    const first = await fireNext(stub, chatId, job.id);
    expect(await settleSent(stub, first.key, "delivered")).toBe(true);
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.status])).toEqual([[first.key, "delivered"]]);
    const last = await fireNext(stub, chatId, job.id);
    expect(last.dueAt).toBe(`${year}-04-01T10:00:00.000Z`);
    expect(await settleSent(stub, last.key, "failed", "the agent failed")).toBe(true);
    // Its last run failed: the job is gone all the same (nothing is left to resume).
    expect(await send("GET", `/admin/chats/${chatId}/jobs/${job.id}`)).toEqual(noJob(job.id));
  });
});

describe("a zone change", () => {
  it("keeps a rule's start as local time and expands it in the new zone", async () => {
    const { chatId, stub, year } = await chatIn(null);
    const job = await create(chatId, { rrule: "FREQ=WEEKLY;INTERVAL=2", start: `${year}-01-05T10:00` });
    expect(job.nextRunAt).toBe(`${year}-01-05T10:00:00.000Z`);
    const tokyo = await must(stub.setTimeZone(chatId, "Asia/Tokyo"));
    expect(tokyo.cronJobs).toBe(1);
    expect(tokyo.message).toMatch(/ 1 recurring job now follows this zone\.$/);
    expect(await jobOf(chatId, job.id)).toMatchObject({
      schedule: { rrule: "FREQ=WEEKLY;INTERVAL=2", start: `${year}-01-05T10:00` },
      nextRunAt: `${year}-01-05T01:00:00.000Z`,
    });
    await must(stub.setTimeZone(chatId, "America/New_York"));
    expect((await jobOf(chatId, job.id)).nextRunAt).toBe(`${year}-01-05T15:00:00.000Z`);
    // Every other week from the same local start: the one after is 14 days on, at 10:00 there.
    await advanceTo(stub, Date.parse(`${year}-01-05T16:00:00Z`));
    await must(stub.setTimeZone(chatId, "America/New_York"));
    expect((await jobOf(chatId, job.id)).nextRunAt).toBe(new Date(Date.parse(`${year}-01-05T15:00:00Z`) + 14 * DAY).toISOString());
  });
});
