/**
 * SQLite rows written per fire (docs/operations.md: every row written is billed; a test counts them and keeps the
 * count small and known). Each chat has its own id (2200000 up).
 *
 * How it is measured: the Durable Object's storage code runs every statement through the runtime's one
 * `SqlStorage` (`ctx.storage.sql`). The test wraps that object's `exec` on the live instance, keeps every cursor, and after
 * the alarm sums `cursor.rowsWritten`: the figure Cloudflare bills, which counts index entries as well as
 * table rows. The alarm itself runs through `runDurableObjectAlarm`, unchanged. SQLite's own
 * `total_changes()` (table rows only, and also the runtime's alarm bookkeeping) is read as a cross-check.
 * Jobs come due by moving the object's clock (`advanceTo`), which writes nothing; the queue spy keeps the
 * prompts from the real queue, whose consumer would otherwise write to the run gate while the meter runs.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Job } from "../../src/schemas/jobs";
import { advanceTo, chatIds, clockOf, fireJob, historyOf, must, queued, type Stub, spyQueue } from "./helpers";
import { delivered, postUpdate, TestBot, telegramChat, textUpdate } from "./telegram-helpers";
import { callback, outcomeOf, withRunner } from "./watcher-helpers";

const newChat = chatIds(2_200_000);
const bot = new TestBot("rows");

type Counted = { query: string; cursor: SqlStorageCursor<Record<string, SqlStorageValue>> };
type Meter = { statements: Counted[]; changesBefore: number };

/**
 * Wraps `exec` of the object's `SqlStorage` (the runtime's handle, which every store of the chat runs its
 * statements through); every statement run from now on is kept.
 */
async function meter(stub: Stub): Promise<Meter> {
  const m: Meter = { statements: [], changesBefore: 0 };
  m.changesBefore = await runInDurableObject(stub, (_instance, state) => {
    const sql = state.storage.sql;
    const exec = sql.exec.bind(sql);
    sql.exec = (<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]) => {
      const cursor = exec<T>(query, ...bindings);
      m.statements.push({ query, cursor });
      return cursor;
    }) as SqlStorage["exec"];
    return exec<{ n: number }>("SELECT total_changes() AS n").one().n;
  });
  return m;
}

/** Stops metering and reports rows written, per writing statement (`INSERT runs`) and in total. */
async function readMeter(stub: Stub, m: Meter): Promise<{ rowsWritten: number; writes: [string, number][]; tableChanges: number }> {
  const changesAfter = await runInDurableObject(stub, (_instance, state) => {
    // The object's own `exec` again (the wrapper was an own property over the prototype's method).
    delete (state.storage.sql as Partial<SqlStorage>).exec;
    return state.storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;
  });
  const writes = m.statements
    .filter((s) => s.cursor.rowsWritten > 0)
    .map((s): [string, number] => {
      const words = s.query.trim().split(/\s+/);
      const verb = words[0]!.toUpperCase();
      const table = verb === "UPDATE" ? words[1]! : words[2]!;
      return [`${verb} ${table}`, s.cursor.rowsWritten];
    });
  return { rowsWritten: writes.reduce((n, [, w]) => n + w, 0), writes, tableChanges: changesAfter - m.changesBefore };
}

/** A new chat's watcher ticked once under the meter: the alarm that claims and starts it, then the runner's outcome. */
async function meteredWatcherTick(outcome: { status: "silent" } | { status: "output"; stdout: string }) {
  const { chatId, stub } = newChat();
  await withRunner(stub);
  const job = await must(stub.createJob(chatId, { name: "Price", kind: "watcher", cron: "*/10 * * * *", command: "true" }, "admin"));
  const due = Date.parse(job.nextRunAt!);
  await advanceTo(stub, due);

  const m = await meter(stub);
  expect(await runDurableObjectAlarm(stub)).toBe(true);
  expect((await callback(chatId, outcomeOf(chatId, `${job.id}:${due}`, outcome))).status).toBe(204);
  return { chatId, stub, job, due, rows: await readMeter(stub, m) };
}

describe("SQLite rows written per fire", () => {
  it("writes 3 rows to fire one due one-off prompt: the claimed run, the job, the dispatch mark (no index entry)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Call the dentist", kind: "prompt", delay: "PT5M", text: "Call the dentist." }, "admin"));
    await advanceTo(stub, Date.parse(job.nextRunAt!));

    const m = await meter(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await readMeter(stub, m);

    expect((await historyOf(stub, chatId, job.id)).map((r) => r.state)).toEqual(["dispatched"]);
    expect(rows.writes).toEqual([
      ["INSERT runs", 1],
      ["UPDATE jobs", 1],
      ["UPDATE runs", 1],
    ]);
    expect(rows.rowsWritten).toBe(3);
    // Cross-check: 3 table rows (run inserted, job updated, run updated) + 2 of the runtime's alarm bookkeeping
    // (the alarm that ran is cleared, the next one set).
    expect(rows.tableChanges).toBe(5);
  });

  it("writes 4 rows to fire one due cron prompt (the job's next run moves in its index too)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Price check", kind: "prompt", cron: "*/10 * * * *", text: "Check the price." }, "admin"));
    await advanceTo(stub, Date.parse(job.nextRunAt!));

    const m = await meter(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await readMeter(stub, m);

    expect((await historyOf(stub, chatId, job.id)).map((r) => r.state)).toEqual(["dispatched"]);
    expect(rows.writes).toEqual([
      ["INSERT runs", 1],
      ["UPDATE jobs", 2],
      ["UPDATE runs", 1],
    ]);
    expect(rows.rowsWritten).toBe(4);
  });

  it("writes 30 rows to fire 10 one-off prompts due at one instant (3 each, nothing per alarm)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    // One instant, a whole second 5 minutes ahead, given to all ten as their `at`.
    const due = Math.floor((await clockOf(stub)) / 1000) * 1000 + 5 * 60_000;
    const jobs: Job[] = [];
    for (let i = 0; i < 10; i++) {
      jobs.push(await must(stub.createJob(chatId, { name: `Job ${i}`, kind: "prompt", at: new Date(due).toISOString(), text: `Prompt ${i}.` }, "admin")));
    }
    await advanceTo(stub, due);

    const m = await meter(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await readMeter(stub, m);

    expect((await queued(stub)).map((s) => (s.body as { key: string }).key).sort()).toEqual(jobs.map((j) => `${j.id}:${due}`).sort());
    for (const job of jobs) expect((await historyOf(stub, chatId, job.id)).map((r) => r.state)).toEqual(["dispatched"]);
    expect(rows.rowsWritten).toBe(30);
  });

  it("writes 8 rows for a watcher's first silent tick: the alarm that claims and starts it (4), the callback that settles it (3), the directory's note of its first result (1)", async () => {
    const { chatId, stub, job, due, rows } = await meteredWatcherTick({ status: "silent" });

    expect((await historyOf(stub, chatId, job.id)).map((r) => [r.runId, r.status])).toEqual([[`${job.id}:${due}`, "silent"]]);
    expect(rows.writes).toEqual([
      ["INSERT runs", 1],
      ["UPDATE jobs", 2],
      ["UPDATE runs", 1],
      // Settled: the run moves from the open runs to the job's history.
      ["INSERT run_history", 1],
      ["DELETE runs", 1],
      ["UPDATE jobs", 1],
      // The job's last result went from none to silent: the D1 directory shows it, and the object remembers
      // what it wrote there (test/worker/directory.test.ts: a status that stays the same writes nothing).
      ["INSERT directory", 1],
    ]);
    expect(rows.rowsWritten).toBe(8);
  });

  it("writes the same 3 rows for a one-off prompt with memory references: reading the records writes nothing (issue 16)", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const refs: string[] = [];
    for (let i = 0; i < 5; i++) refs.push((await must(stub.createMemory(chatId, { title: `Record ${i}`, body: "x".repeat(1000) }))).id);
    const job = await must(stub.createJob(chatId, { name: "Review", kind: "prompt", delay: "PT5M", text: "Review.", memoryRefs: refs }, "admin"));
    await advanceTo(stub, Date.parse(job.nextRunAt!));

    const m = await meter(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await readMeter(stub, m);

    expect(((await queued(stub))[0]!.body as { text: string }).text).toContain(`--- Memory ${refs[4]} "Record 4" (revision 1) ---`);
    expect(rows.writes).toEqual([
      ["INSERT runs", 1],
      ["UPDATE jobs", 1],
      ["UPDATE runs", 1],
    ]);
  });

  it("writes 7 rows for a watcher's match: the claim and start (4), the day's wake-up count (1), the run re-claimed as a prompt (1) and sent (1) (issue 16)", async () => {
    const { chatId, stub, job, rows } = await meteredWatcherTick({ status: "output", stdout: "hit\n" });

    expect((await historyOf(stub, chatId, job.id)).map((r) => r.state)).toEqual(["dispatched"]);
    expect(rows.writes).toEqual([
      ["INSERT runs", 1],
      ["UPDATE jobs", 2],
      ["UPDATE runs", 1],
      ["INSERT usage", 1],
      ["UPDATE runs", 1],
      ["UPDATE runs", 1],
    ]);
    expect(rows.rowsWritten).toBe(7);
  });

  it("writes 2 rows to send a job's message to Telegram (its message ids on its entry, the outbox row gone) and 1 for a command's reply (issue 25)", async () => {
    const chat = await telegramChat(bot, newChat().chatId);
    const { runId } = await fireJob(chat.chatId, chat.stub, { cron: true });
    expect(await must(chat.stub.deliver(runId, "Time to stretch."))).toEqual({ delivered: true });
    let m = await meter(chat.stub);
    await delivered(bot, chat, 1);
    const job = await readMeter(chat.stub, m);
    expect(job.writes).toEqual([
      ["UPDATE transcript", 1],
      ["DELETE outbox", 1],
    ]);
    await postUpdate(bot.env([chat.chatId]), textUpdate(chat.chatId, "/status"));
    m = await meter(chat.stub);
    await delivered(bot, chat, 2);
    expect((await readMeter(chat.stub, m)).writes).toEqual([["DELETE outbox", 1]]);
  });

  it("writes nothing when the alarm finds nothing due", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Later", kind: "prompt", delay: "PT1H", text: "Later." }, "admin"));
    // A minute short of its time.
    await advanceTo(stub, Date.parse(job.nextRunAt!) - 60_000);

    const m = await meter(stub);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await readMeter(stub, m);

    expect(rows.writes).toEqual([]);
    expect(rows.rowsWritten).toBe(0);
    expect(await queued(stub)).toEqual([]);
  });
});
