/**
 * Notices ahead of a run in workerd (docs/telegram.md#notices-ahead, issue 36): a job's `before` sends, that long before
 * each run, a notice in transcript mode with Skip this one, no agent turn; the chat's one alarm covers them (no alarm of
 * their own); Skip this one passes over a recurring job's run and drops a one-off. Chat ids 9870000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { advanceTo, alarmOf, chatIds, historyOf, must, queued, type Stub, send, spyQueue, transcript } from "./helpers";

const newChat = chatIds(9_870_000);
const H = 3_600_000;

const notices = async (stub: Stub, chatId: string) =>
  (await transcript(stub, chatId))
    .filter((e) => e.role === "bot" && e.source === "alert")
    .map((e) => ({ text: e.text, data: (e.buttons?.[0]?.[0] as { data?: string } | undefined)?.data ?? "", buttons: e.buttons }));
const press = (chatId: string, data: string) => send("POST", `/admin/chats/${chatId}/messages`, { press: data });

describe("a one-off with notices a day and an hour before", () => {
  it("sends each once at its time, then the reminder; the alarm is the soonest of them", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "UTC"));
    const job = await must(stub.createJob(chatId, { name: "Dentist", kind: "prompt", delay: "P2D", text: "Go", before: ["PT1H", "P1D"] }, "admin"));
    const at = Date.parse(job.nextRunAt!);
    expect(job.before).toEqual(["P1D", "PT1H"]);
    expect(await alarmOf(stub)).toBe(at - 24 * H);
    await advanceTo(stub, at - 24 * H);
    await runDurableObjectAlarm(stub);
    const day = new Date(at).toUTCString().slice(0, 3);
    const [first] = await notices(stub, chatId);
    expect(first!.text).toMatch(new RegExp(`^In 1 day: \\*\\*Dentist\\*\\* \\(${day} \\d+ \\w+ \\d\\d:\\d\\d\\)$`));
    expect(first!.buttons).toEqual([[{ text: "Skip this one", data: `n:${job.id}:${at}` }]]);
    expect(await alarmOf(stub)).toBe(at - H);
    await runDurableObjectAlarm(stub);
    expect(await notices(stub, chatId)).toHaveLength(1);
    await advanceTo(stub, at - H);
    await runDurableObjectAlarm(stub);
    expect((await notices(stub, chatId)).map((n) => n.text.split(":")[0])).toEqual(["In 1 day", "In 1 h"]);
    expect(await queued(stub)).toHaveLength(0);
    expect(await alarmOf(stub)).toBe(at);
  });

  it("Skip this one drops the one-off: its reminder is not sent", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Dentist", kind: "prompt", delay: "PT3H", text: "Go", before: ["PT1H"] }, "admin"));
    const at = Date.parse(job.nextRunAt!);
    await advanceTo(stub, at - H);
    await runDurableObjectAlarm(stub);
    const [notice] = await notices(stub, chatId);
    const answer = await press(chatId, notice!.data);
    expect(answer.status).toBe(200);
    expect((answer.body as { answer: string }).answer).toMatch(/^Skipped \d\d:\d\d\.$/);
    expect((await stub.getJob(chatId, job.id)).ok).toBe(false);
    await advanceTo(stub, at);
    await runDurableObjectAlarm(stub);
    expect(await queued(stub)).toHaveLength(0);
  });
});

describe("a recurring job with a notice an hour before", () => {
  it("notices each run; Skip this one passes over that run, and the next is noticed again", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.setTimeZone(chatId, "UTC"));
    const job = await must(stub.createJob(chatId, { name: "Standup", kind: "prompt", cron: "0 9 * * *", text: "Standup", before: ["PT1H"] }, "admin"));
    const first = Date.parse(job.nextRunAt!);
    await advanceTo(stub, first - H);
    await runDurableObjectAlarm(stub);
    const [notice] = await notices(stub, chatId);
    expect(((await press(chatId, notice!.data)).body as { answer: string }).answer).toBe("Skipped 09:00.");
    const after = await must(stub.getJob(chatId, job.id));
    expect(after.nextRunAt).toBe(new Date(first + 24 * H).toISOString());
    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.status])).toEqual([[`${job.id}:${first}`, "skipped"]]);
    expect(await alarmOf(stub)).toBe(first + 23 * H);
  });

  it("is refused when a notice is not shorter than the job's interval", async () => {
    const { chatId, stub } = newChat();
    expect(await stub.createJob(chatId, { name: "Hourly", kind: "prompt", cron: "0 * * * *", text: "x", before: ["PT2H"] }, "admin")).toEqual({
      ok: false,
      error: { code: "bad_request", message: `"before" PT2H is not shorter than this job's shortest interval between runs (PT1H).` },
    });
  });
});
