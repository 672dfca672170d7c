/**
 * Memory references of prompt jobs (docs/api.md; issue 16) in the chat's object: checked to exist when a
 * job is created or edited; at each fire the prompt holds the records' content as it is then (an update after
 * the job was made shows); a record deleted since fails that run (history, lastResult, one sentence to the
 * chat naming the job, no queue message), a cron job moving on and a one-off kept paused; run now likewise.
 * Time moves through the object's clock. Chat ids 9610000 up.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import { MEMORY_INTRO } from "../../src/jobs/memory";
import { jobReply } from "../../src/schemas/jobs";
import type { MemoryRecord } from "../../src/schemas/memory";
import { advanceTo, badRequest, brief, chatIds, historyOf, must, queued, type Stub, send, spyQueue, transcript } from "./helpers";

const newChat = chatIds(9_610_000);

const missing = (id: string) => `"memoryRefs" names ${id}, which is not a memory record of this chat; see memory_list.`;

async function record(stub: Stub, chatId: string, title: string, body: string): Promise<MemoryRecord> {
  return must(stub.createMemory(chatId, { title, body }));
}

/** Runs the alarm at the job's next run (the object's clock moved there); returns the due instant. */
async function fireAt(stub: Stub, chatId: string, jobId: string): Promise<number> {
  const { nextRunAt } = await must(stub.getJob(chatId, jobId));
  const due = Date.parse(nextRunAt!);
  await advanceTo(stub, due);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  return due;
}

describe("memoryRefs on create and edit", () => {
  it("are checked to exist in this chat, and shown on the job", async () => {
    const { chatId, stub } = newChat();
    const other = newChat();
    const theirs = await record(other.stub, other.chatId, "Theirs", "x");
    const mine = await record(stub, chatId, "Mine", "y");
    const input = { name: "Review", kind: "prompt", cron: "0 8 * * 1", text: "Review." };
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { ...input, memoryRefs: [theirs.id] })).toEqual(badRequest(missing(theirs.id)));
    expect(await send("POST", `/admin/chats/${chatId}/jobs`, { ...input, memoryRefs: "abc" })).toEqual(
      badRequest('"memoryRefs" must be a list of up to 5 memory record ids, such as ["m4x7pq"].'),
    );
    const created = await send("POST", `/admin/chats/${chatId}/jobs`, { ...input, memoryRefs: [mine.id] }).as(jobReply());
    expect(created.status).toBe(201);
    expect(created.body.job).toMatchObject({ kind: "prompt", memoryRefs: [mine.id] });
    const id = created.body.job.id;

    expect(await send("PATCH", `/admin/chats/${chatId}/jobs/${id}`, { memoryRefs: [mine.id, theirs.id] })).toEqual(badRequest(missing(theirs.id)));
    expect((await send("GET", `/admin/chats/${chatId}/jobs/${id}`).as(jobReply())).body.job.memoryRefs).toEqual([mine.id]);
    const cleared = await send("PATCH", `/admin/chats/${chatId}/jobs/${id}`, { memoryRefs: [] }).as(jobReply());
    expect(cleared.status).toBe(200);
    expect(cleared.body.job).not.toHaveProperty("memoryRefs");
  });

  it("let an edit of other fields keep a reference whose record went (its runs fail until it changes)", async () => {
    const { chatId, stub } = newChat();
    const gone = await record(stub, chatId, "Gone", "x");
    const job = await must(stub.createJob(chatId, { name: "Review", kind: "prompt", cron: "0 8 * * 1", text: "Review.", memoryRefs: [gone.id] }, "admin"));
    await must(stub.deleteMemory(chatId, gone.id));
    const edited = await must(stub.editJob(chatId, job.id, { name: "Weekly review" }));
    expect(edited).toMatchObject({ name: "Weekly review", memoryRefs: [gone.id] });
  });
});

describe("a fire", () => {
  it("puts each record's content as it is at the fire into the prompt, marked with id, title and revision", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const alpha = await record(stub, chatId, "Project Alpha", "Waiting for the quote.");
    const todo = await record(stub, chatId, "To do", "- call Bob");
    const job = await must(
      stub.createJob(chatId, { name: "Review", kind: "prompt", cron: "0 8 * * *", text: "Review the project.", memoryRefs: [todo.id, alpha.id] }, "admin"),
    );
    // Changed after the job was made: the fire reads it then.
    await must(stub.updateMemory(chatId, alpha.id, { revision: 1, body: "The quote came: 4,200 EUR." }));

    const due = await fireAt(stub, chatId, job.id);
    const [sent] = await queued(stub);
    const message = sent!.body as PromptMessage;
    expect(message.key).toBe(`${job.id}:${due}`);
    expect(message.body).toBe("Review the project.");
    expect(message.text).toBe(
      [
        `[Scheduled job "Review" (${job.id})]`,
        "Review the project.",
        "",
        MEMORY_INTRO,
        `--- Memory ${todo.id} "To do" (revision 1) ---`,
        "- call Bob",
        `--- End of memory ${todo.id} ---`,
        `--- Memory ${alpha.id} "Project Alpha" (revision 2) ---`,
        "The quote came: 4,200 EUR.",
        `--- End of memory ${alpha.id} ---`,
      ].join("\n"),
    );
  });

  it("fails the run of a cron job whose record is gone: history, lastResult, one sentence, nothing queued; the next run is still planned", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const alpha = await record(stub, chatId, "Alpha", "x");
    const job = await must(stub.createJob(chatId, { name: "Review", kind: "prompt", cron: "0 8 * * *", text: "Review.", memoryRefs: [alpha.id] }, "admin"));
    await must(stub.deleteMemory(chatId, alpha.id));

    const due = await fireAt(stub, chatId, job.id);
    expect(await queued(stub)).toEqual([]);
    const runId = `${job.id}:${due}`;
    const [run] = await historyOf(stub, chatId, job.id);
    expect(run).toMatchObject({ runId, state: "settled", status: "failed", detail: `memory record ${alpha.id} no longer exists` });
    const after = await must(stub.getJob(chatId, job.id));
    expect(after).toMatchObject({ enabled: true, running: false, lastResult: { status: "failed" } });
    expect(Date.parse(after.nextRunAt!)).toBe(due + 86_400_000);
    expect(brief(await transcript(stub, chatId))).toEqual([
      {
        role: "bot",
        source: "alert",
        text: `⚠️ Job "Review" (${job.id}) did not run: its memory record ${alpha.id} no longer exists. Change its memoryRefs, or /cancel ${job.id} removes it; until then each of its runs fails.`,
        jobId: job.id,
        runId,
      },
    ]);
  });

  it("keeps a one-off whose record is gone, paused, and tells the chat how to run it again", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const alpha = await record(stub, chatId, "Alpha", "x");
    const job = await must(stub.createJob(chatId, { name: "Once", kind: "prompt", delay: "PT1H", text: "Once.", memoryRefs: [alpha.id] }, "admin"));
    await must(stub.deleteMemory(chatId, alpha.id));
    await fireAt(stub, chatId, job.id);
    expect(await queued(stub)).toEqual([]);
    expect(await must(stub.getJob(chatId, job.id))).toMatchObject({ enabled: false, nextRunAt: null, running: false, lastResult: { status: "failed" } });
    expect((await transcript(stub, chatId)).map((e) => e.text)).toEqual([
      `⚠️ Job "Once" (${job.id}) did not run: its memory record ${alpha.id} no longer exists. It is paused: change its memoryRefs, then /resume ${job.id}; or /cancel ${job.id} removes it.`,
    ]);
  });

  it("run now fails the same way and reschedules nothing", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const alpha = await record(stub, chatId, "Alpha", "x");
    const job = await must(stub.createJob(chatId, { name: "Review", kind: "prompt", cron: "0 8 * * *", text: "Review.", memoryRefs: [alpha.id] }, "admin"));
    await must(stub.deleteMemory(chatId, alpha.id));
    const after = await must(stub.runJobNow(chatId, job.id));
    expect(after).toMatchObject({ running: false, nextRunAt: job.nextRunAt, lastResult: { status: "failed" } });
    expect(await queued(stub)).toEqual([]);
    const [run] = await historyOf(stub, chatId, job.id);
    expect(run).toMatchObject({ manual: true, status: "failed", detail: `memory record ${alpha.id} no longer exists` });
    expect((await transcript(stub, chatId)).map((e) => e.source)).toEqual(["alert"]);
  });
});
