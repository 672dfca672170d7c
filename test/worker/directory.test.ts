/**
 * The D1 directory (docs/design/0008-layout.md, docs/api.md; issue 15): each chat's object writes its projection after its own change,
 * never on a cron job's fire, retries a failed write from its alarm, and `GET /admin/chats`, `GET /admin/jobs`
 * and `POST /admin/directory/rebuild` read and repair it. Other test files write their chats to the same D1,
 * so every listing here is narrowed with `q` to this file's chat ids (4150xx).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chatListSchema, type DirectoryJobList, directoryJobListSchema } from "../../src/schemas/directory";
import { settleSent } from "./agent-helpers";
import { type Answer, advanceTo, alarmOf, chatIds, clockOf, createJob, lines, must, nextRun, quietConsole, type Stub, send, spyQueue, sql } from "./helpers";

const newChat = chatIds(415_000);

type Row = { updated_at: number; next_run_at: number | null; enabled: number; last_status: string | null };
const jobRow = (chatId: string, jobId: string) =>
  env.DB.prepare("SELECT updated_at, next_run_at, enabled, last_status FROM jobs WHERE chat_id = ? AND job_id = ?").bind(chatId, jobId).first<Row>();
const chatRows = async (chatId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM chats WHERE chat_id = ?").bind(chatId).first<{ n: number }>())!.n;
const jobRows = async (chatId: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE chat_id = ?").bind(chatId).first<{ n: number }>())!.n;

describe("the chat's rows", () => {
  it("lists a chat with its zone, job count and soonest next run, and its jobs soonest first", async () => {
    const { chatId } = newChat();
    const cron = await createJob(chatId, { name: "Inbox summary", kind: "prompt", cron: "0 8 * * 1-5", text: "Summarise my inbox." });
    const soon = await createJob(chatId, { name: "Call the dentist", kind: "prompt", delay: "PT20M", text: "Call the dentist." });

    expect(await send("GET", `/admin/chats?q=${chatId}`)).toEqual({
      status: 200,
      body: { chats: [{ chatId, timeZone: "UTC", jobs: 2, nextRunAt: soon.nextRunAt, blocked: false }], cursor: null },
    });
    expect(await send("GET", `/admin/jobs?q=${chatId}`)).toEqual({
      status: 200,
      body: {
        jobs: [
          {
            chatId,
            id: soon.id,
            name: "Call the dentist",
            kind: "prompt",
            category: "one-time",
            schedule: soon.schedule,
            enabled: true,
            nextRunAt: soon.nextRunAt,
            lastStatus: null,
            timeZone: "UTC",
          },
          {
            chatId,
            id: cron.id,
            name: "Inbox summary",
            kind: "prompt",
            category: "recurring",
            schedule: { cron: "0 8 * * 1-5" },
            enabled: true,
            nextRunAt: cron.nextRunAt,
            lastStatus: null,
            timeZone: "UTC",
          },
        ],
        cursor: null,
      },
    });
    expect((await send("GET", `/admin/jobs?q=${chatId}&category=recurring`).as(directoryJobListSchema())).body.jobs.map((j) => j.id)).toEqual([cron.id]);
    expect((await send("GET", `/admin/jobs?q=DENTIST`).as(directoryJobListSchema())).body.jobs.filter((j) => j.chatId === chatId).map((j) => j.id)).toEqual([
      soon.id,
    ]);
  });

  it("has no row for a chat that has only been read", async () => {
    const { chatId } = newChat();
    expect((await send("GET", `/admin/chats/${chatId}/jobs`)).status).toBe(200);
    expect((await send("GET", `/admin/chats/${chatId}/settings`)).status).toBe(200);
    expect(await chatRows(chatId)).toBe(0);
    expect((await send("GET", `/admin/chats?q=${chatId}`)).body).toEqual({ chats: [], cursor: null });
  });

  it("follows a pause, a zone change, a cancel and an erase", async () => {
    const { chatId } = newChat();
    const job = await createJob(chatId, { name: "Standup", kind: "prompt", cron: "30 9 * * *", text: "Standup notes." });
    const other = await createJob(chatId, { name: "Later", kind: "prompt", delay: "PT2H", text: "Later." });

    expect((await send("POST", `/admin/chats/${chatId}/jobs/${job.id}/pause`)).status).toBe(200);
    let listed = (await send("GET", `/admin/jobs?q=${chatId}`).as(directoryJobListSchema())).body.jobs;
    expect(listed.map((j) => [j.id, j.enabled, j.nextRunAt])).toEqual([
      [other.id, true, other.nextRunAt],
      [job.id, false, null],
    ]);

    expect((await send("POST", `/admin/chats/${chatId}/jobs/${job.id}/resume`)).status).toBe(200);
    expect((await send("PUT", `/admin/chats/${chatId}/settings`, { timeZone: "Asia/Tokyo" })).status).toBe(200);
    const chat = (await send("GET", `/admin/chats?q=${chatId}`).as(chatListSchema())).body.chats[0]!;
    expect([chat.timeZone, chat.jobs]).toEqual(["Asia/Tokyo", 2]);
    listed = (await send("GET", `/admin/jobs?q=${chatId}&category=recurring`).as(directoryJobListSchema())).body.jobs;
    expect(listed.map((j) => [j.nextRunAt, j.timeZone])).toEqual([[nextRun("30 9 * * *", "Asia/Tokyo"), "Asia/Tokyo"]]);

    expect((await send("DELETE", `/admin/chats/${chatId}/jobs/${job.id}`)).status).toBe(204);
    expect((await send("GET", `/admin/jobs?q=${chatId}`).as(directoryJobListSchema())).body.jobs.map((j) => j.id)).toEqual([other.id]);
    expect((await send("GET", `/admin/chats?q=${chatId}`).as(chatListSchema())).body.chats[0]!.jobs).toBe(1);

    expect((await send("DELETE", `/admin/chats/${chatId}`)).status).toBe(204);
    expect([await chatRows(chatId), await jobRows(chatId)]).toEqual([0, 0]);
  });

  it("keeps the chat's row while it has its own zone, and drops it when the last reason goes", async () => {
    const { chatId } = newChat();
    expect((await send("PUT", `/admin/chats/${chatId}/settings`, { timeZone: "Europe/Berlin" })).status).toBe(200);
    expect((await send("GET", `/admin/chats?q=${chatId}`).as(chatListSchema())).body.chats).toEqual([
      { chatId, timeZone: "Europe/Berlin", jobs: 0, nextRunAt: null, blocked: false },
    ]);
    expect((await send("PUT", `/admin/chats/${chatId}/settings`, { timeZone: null })).status).toBe(200);
    expect(await chatRows(chatId)).toBe(0);
  });
});

describe("written on a change, not on a fire", () => {
  it("writes nothing when a cron job fires, and its listed next run is computed from its schedule", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Hourly", kind: "prompt", cron: "0 * * * *", text: "Tick." }, "admin"));
    const before = await jobRow(chatId, job.id);
    await advanceTo(stub, Date.parse(job.nextRunAt!));
    expect(await runDurableObjectAlarm(stub)).toBe(true);

    // The object's next run moved an hour on; the directory's row is the one written at the create.
    expect((await stub.getJob(chatId, job.id)) as unknown).toMatchObject({
      ok: true,
      value: { nextRunAt: new Date(Date.parse(job.nextRunAt!) + 3_600_000).toISOString() },
    });
    expect(await jobRow(chatId, job.id)).toEqual(before);
  });

  it("writes a job's last result when its status changes, and not again when it stays the same", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const job = await must(stub.createJob(chatId, { name: "Yearly", kind: "prompt", cron: "0 0 1 1 *", text: "Happy new year." }, "admin"));
    const first = Date.parse(job.nextRunAt!);
    await advanceTo(stub, first);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await settleSent(stub, `${job.id}:${first}`, "delivered")).toBe(true);
    const written = await jobRow(chatId, job.id);
    expect(written?.last_status).toBe("delivered");

    const second = Date.parse(nextRun("0 0 1 1 *", "UTC", first));
    await advanceTo(stub, second);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await settleSent(stub, `${job.id}:${second}`, "delivered")).toBe(true);
    expect(await jobRow(chatId, job.id)).toEqual(written);

    quietConsole("error"); // the failed run is logged
    const third = Date.parse(nextRun("0 0 1 1 *", "UTC", second));
    await advanceTo(stub, third);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await settleSent(stub, `${job.id}:${third}`, "failed", "the model said no")).toBe(true);
    expect((await jobRow(chatId, job.id))?.last_status).toBe("failed");
  });
});

describe("what the alarm changes", () => {
  it("shows a job the alarm quarantined as failed with no next run, beside the one it fired", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    const bad = await must(stub.createJob(chatId, { name: "Broken", kind: "prompt", delay: "PT5M", text: "This row will not parse." }, "admin"));
    const good = await must(stub.createJob(chatId, { name: "Healthy", kind: "prompt", delay: "PT6M", text: "This one fires." }, "admin"));
    // A damaged row is the point here, and no client can write one: the one raw write of this test.
    await sql(stub, "UPDATE jobs SET last_result = '{bad' WHERE id = ?", bad.id);
    const errors = quietConsole("error");
    await advanceTo(stub, Date.parse(good.nextRunAt!));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(lines(errors)).toEqual([`job ${bad.id} quarantined: row: last_result is not a valid result`]);

    expect(await jobRow(chatId, bad.id)).toMatchObject({ next_run_at: null, enabled: 1, last_status: "failed" });
    // The fired one-off is still live until it settles: its row keeps its time.
    expect(await jobRow(chatId, good.id)).toMatchObject({ next_run_at: Date.parse(good.nextRunAt!), enabled: 1, last_status: null });
  });
});

/** The chat's object sees a D1 whose every batch fails (its reads still work), until `d1Back`. */
const d1Down = (stub: Stub) =>
  runInDurableObject(stub, (instance) => {
    const holder = instance as unknown as { env: Env };
    const real = holder.env.DB;
    const down = {
      batches: 0,
      prepare: (sql: string) => real.prepare(sql),
      batch: () => {
        down.batches++;
        return Promise.reject(new Error("D1 is down"));
      },
    };
    holder.env = { ...holder.env, DB: down as unknown as D1Database, REAL_DB: real } as Env;
  });

const d1Back = (stub: Stub) =>
  runInDurableObject(stub, (instance) => {
    const holder = instance as unknown as { env: Env & { REAL_DB: D1Database } };
    holder.env = { ...holder.env, DB: holder.env.REAL_DB };
  });

describe("a failed write", () => {
  it("never fails the call, is logged, and is written again by the alarm it arms", async () => {
    const { chatId, stub } = newChat();
    await d1Down(stub);
    const batches = () => runInDurableObject(stub, (instance) => (instance as unknown as { env: { DB: { batches: number } } }).env.DB.batches);
    const errors = quietConsole("error");
    const before = await clockOf(stub);
    const job = await must(stub.createJob(chatId, { name: "Next year", kind: "prompt", cron: "0 0 1 1 *", text: "Plan the year." }, "admin"));
    const after = await clockOf(stub);

    expect(await jobRows(chatId)).toBe(0);
    const logged = lines(errors);
    expect(logged).toHaveLength(1);
    const match = new RegExp(`^directory: could not write chat ${chatId}'s rows; trying again from (\\S+) Error: D1 is down$`).exec(logged[0]!);
    const retryAt = Date.parse(match?.[1] ?? "");
    expect(retryAt - 60_000).toBeGreaterThanOrEqual(before);
    expect(retryAt - 60_000).toBeLessThanOrEqual(after);
    expect(await alarmOf(stub)).toBe(retryAt);

    // Until then, calls that change the chat leave D1 alone (a hanging D1 would cost each one the time limit).
    await must(stub.pauseJob(chatId, job.id));
    await must(stub.resumeJob(chatId, job.id));
    expect(await batches()).toBe(1);

    await d1Back(stub);
    await advanceTo(stub, retryAt);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await send("GET", `/admin/jobs?q=${chatId}`).as(directoryJobListSchema())).body.jobs.map((j) => [j.id, j.enabled])).toEqual([[job.id, true]]);
    // The job's own next run is what the alarm is armed for now: the retry is done.
    expect(await alarmOf(stub)).toBe(Date.parse(job.nextRunAt!));
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it("ends its retry when the change it failed to write was undone meanwhile: the alarm does not come back for it", async () => {
    const { chatId, stub } = newChat();
    await d1Down(stub);
    const errors = quietConsole("error");
    const job = await must(stub.createJob(chatId, { name: "Oops", kind: "prompt", cron: "0 0 1 1 *", text: "Oops." }, "admin"));
    const retryAt = (await alarmOf(stub))!;
    await must(stub.cancelJob(chatId, job.id));
    expect(lines(errors)).toHaveLength(1);

    await d1Back(stub);
    await advanceTo(stub, retryAt);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // Nothing to write (the chat projects to no row, as before the failure), and nothing left to come back for.
    expect([await chatRows(chatId), await jobRows(chatId), await alarmOf(stub)]).toEqual([0, 0, null]);
  });

  it("retries a rebuild that did not land from the alarm, writing every row", async () => {
    const { chatId, stub } = newChat();
    const job = await createJob(chatId, { name: "Kept", kind: "prompt", cron: "0 9 * * *", text: "Kept." });
    await env.DB.batch([env.DB.prepare("DELETE FROM jobs WHERE chat_id = ?").bind(chatId), env.DB.prepare("DELETE FROM chats WHERE chat_id = ?").bind(chatId)]);
    await d1Down(stub);
    const errors = quietConsole("error");
    const before = await clockOf(stub);
    expect(await send("POST", "/admin/directory/rebuild", { chatIds: [chatId] })).toEqual({
      status: 200,
      body: { rebuilt: [], failed: [chatId], cursor: null },
    });
    expect(lines(errors)).toHaveLength(1);
    const retryAt = (await alarmOf(stub))!;
    expect(retryAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(retryAt).toBeLessThan(Date.parse(job.nextRunAt!));

    await d1Back(stub);
    await advanceTo(stub, retryAt);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect([await chatRows(chatId), await jobRows(chatId), await alarmOf(stub)]).toEqual([1, 1, Date.parse(job.nextRunAt!)]);
  });

  it("fails an erase whose rows could not be removed, arms nothing for it, and a repeated DELETE removes them", async () => {
    const { chatId, stub } = newChat();
    await createJob(chatId, { name: "Standup", kind: "prompt", cron: "30 9 * * *", text: "Standup notes." });
    expect([await chatRows(chatId), await jobRows(chatId)]).toEqual([1, 1]);
    await d1Down(stub);
    const errors = quietConsole("error");

    expect((await send("DELETE", `/admin/chats/${chatId}`)).body).toMatchObject({ error: { code: "internal" } });
    expect(lines(errors)[0]).toBe(`directory: could not remove chat ${chatId}'s rows Error: D1 is down`);
    expect([await chatRows(chatId), await jobRows(chatId)]).toEqual([1, 1]);
    // The erased object is bound to no chat: no retry of its own, so no alarm.
    expect(await alarmOf(stub)).toBeNull();

    await d1Back(stub);
    expect((await send("DELETE", `/admin/chats/${chatId}`)).status).toBe(204);
    expect([await chatRows(chatId), await jobRows(chatId)]).toEqual([0, 0]);
  });
});

describe("pages and queries", () => {
  it("walks the jobs a page at a time with the cursor, soonest first, and refuses a cursor that is not one", async () => {
    const { chatId } = newChat();
    const made = [];
    for (const delay of ["PT3H", "PT1H", "PT2H"]) made.push(await createJob(chatId, { name: `In ${delay}`, kind: "prompt", delay, text: "Soon." }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer<DirectoryJobList> = await send("GET", `/admin/jobs?q=${chatId}&limit=1${cursor ? `&cursor=${cursor}` : ""}`).as(
        directoryJobListSchema(),
      );
      expect(page.status).toBe(200);
      expect(page.body.jobs).toHaveLength(1);
      seen.push(page.body.jobs[0]!.id);
      cursor = page.body.cursor;
    } while (cursor !== null);
    expect(seen).toEqual([made[1]!.id, made[2]!.id, made[0]!.id]);

    expect(await send("GET", "/admin/jobs?cursor=nonsense")).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: '"cursor" must be the cursor of an earlier answer.' } },
    });
    expect(await send("GET", "/admin/chats?limit=0")).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: '"limit" must be a whole number from 1 to 100.' } },
    });
    expect(await send("GET", "/admin/jobs?category=weekly")).toEqual({
      status: 400,
      body: { error: { code: "bad_request", message: '"category" must be "one-time", "recurring", "monitoring" or "triggered".' } },
    });
  });

  it("walks the chats by id with the cursor", async () => {
    // Three chats of their own range (415100–415102), so that their prefix names no other chat.
    const ids = ["415102", "415100", "415101"];
    for (const chatId of ids) await createJob(chatId, { name: "One", kind: "prompt", delay: "PT1H", text: "One." });
    const prefix = "41510";
    const first = await send("GET", `/admin/chats?q=${prefix}&limit=100`).as(chatListSchema());
    const all = first.body.chats.map((c) => c.chatId);
    expect(all).toEqual(["415100", "415101", "415102"]);
    const page = await send("GET", `/admin/chats?q=${prefix}&limit=1`).as(chatListSchema());
    const next = await send("GET", `/admin/chats?q=${prefix}&limit=1&cursor=${page.body.cursor}`).as(chatListSchema());
    expect([page.body.chats[0]!.chatId, next.body.chats[0]!.chatId]).toEqual(all.slice(0, 2));
  });
});

describe("a cron job's next run when read", () => {
  it("is computed from the schedule in the chat's zone once the stored one has passed, and sorts by it", async () => {
    // Rows as an object wrote them a while ago: a cron job whose stored next run has long passed, and a one-off.
    const chatId = "415200";
    const later = Date.now() + 2 * 3_600_000;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO chats (chat_id, time_zone, jobs, updated_at) VALUES (?, 'Asia/Kolkata', 2, 0)").bind(chatId),
      env.DB.prepare(
        "INSERT INTO jobs (chat_id, job_id, name, kind, category, schedule, next_run_at, enabled, updated_at) VALUES (?, 'aaaaa', 'Later', 'prompt', 'one-time', ?, ?, 1, 0), (?, 'bbbbb', 'Half past', 'prompt', 'recurring', '{\"cron\":\"30 * * * *\"}', 1000, 1, 0)",
      ).bind(chatId, JSON.stringify({ at: new Date(later).toISOString() }), later, chatId),
    ]);
    const before = nextRun("30 * * * *", "Asia/Kolkata");
    const listed = (await send("GET", `/admin/jobs?q=${chatId}`).as(directoryJobListSchema())).body.jobs.map((j) => [j.id, j.nextRunAt]);
    const after = nextRun("30 * * * *", "Asia/Kolkata");
    expect(listed).toEqual([
      ["bbbbb", listed[0]![1] === before ? before : after],
      ["aaaaa", new Date(later).toISOString()],
    ]);
    expect([before, after]).toContain(listed[0]![1]);
    expect((await send("GET", `/admin/chats?q=${chatId}`).as(chatListSchema())).body.chats.map((c) => c.nextRunAt)).toEqual([listed[0]![1]]);
  });

  it("is computed for a rule job too, from its local start in the chat's zone", async () => {
    const chatId = "415201";
    const year = new Date().getUTCFullYear() + 1;
    // Every 10 days at 10:00 Kolkata time from 1 January next year, its stored next run long passed.
    await env.DB.batch([
      env.DB.prepare("INSERT INTO chats (chat_id, time_zone, jobs, updated_at) VALUES (?, 'Asia/Kolkata', 1, 0)").bind(chatId),
      env.DB.prepare(
        "INSERT INTO jobs (chat_id, job_id, name, kind, category, schedule, next_run_at, enabled, updated_at) VALUES (?, 'ccccc', 'Tenth', 'prompt', 'recurring', ?, 1000, 1, 0)",
      ).bind(chatId, JSON.stringify({ rrule: "FREQ=DAILY;INTERVAL=10", start: `${year}-01-01T10:00` })),
    ]);
    const [job] = (await send("GET", `/admin/jobs?q=${chatId}`).as(directoryJobListSchema())).body.jobs;
    expect(job).toMatchObject({
      id: "ccccc",
      schedule: { rrule: "FREQ=DAILY;INTERVAL=10", start: `${year}-01-01T10:00` },
      nextRunAt: `${year}-01-01T04:30:00.000Z`,
    });
  });
});

describe("POST /admin/directory/rebuild", () => {
  it("writes a chat's rows again from its object, dropping rows it no longer has", async () => {
    const { chatId } = newChat();
    const job = await createJob(chatId, { name: "Kept", kind: "prompt", cron: "0 9 * * *", text: "Kept." });
    // What a restore to an older state leaves: this chat's rows gone, and a row for a job that no longer exists.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM jobs WHERE chat_id = ?").bind(chatId),
      env.DB.prepare("DELETE FROM chats WHERE chat_id = ?").bind(chatId),
      env.DB.prepare(
        "INSERT INTO jobs (chat_id, job_id, name, kind, category, schedule, next_run_at, enabled, updated_at) VALUES (?, 'zzzzz', 'Gone', 'prompt', 'one-time', '{\"at\":\"2030-01-01T00:00:00.000Z\"}', 1893456000000, 1, 0)",
      ).bind(chatId),
    ]);

    expect(await send("POST", "/admin/directory/rebuild", { chatIds: [chatId] })).toEqual({
      status: 200,
      body: { rebuilt: [chatId], failed: [], cursor: null },
    });
    expect((await send("GET", `/admin/jobs?q=${chatId}`).as(directoryJobListSchema())).body.jobs.map((j) => j.id)).toEqual([job.id]);
    expect((await send("GET", `/admin/chats?q=${chatId}`).as(chatListSchema())).body.chats.map((c) => c.jobs)).toEqual([1]);
  });

  it("deletes the rows of a chat whose object holds nothing", async () => {
    const { chatId } = newChat();
    await env.DB.prepare("INSERT INTO chats (chat_id, jobs, updated_at) VALUES (?, 3, 0)").bind(chatId).run();
    expect(await send("POST", "/admin/directory/rebuild", { chatIds: [chatId] })).toEqual({
      status: 200,
      body: { rebuilt: [chatId], failed: [], cursor: null },
    });
    expect(await chatRows(chatId)).toBe(0);
  });
});

describe("search (issue 22)", () => {
  // 56 characters, 75 bytes: past D1's 50-byte LIKE pattern, with LIKE's wildcards and escape, Cyrillic and an emoji.
  const shared = "Tax_return 100% \\ Ёлка 🎄 quarterly books of the company";
  const list = async (path: string) => {
    const res = await send("GET", path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { jobs: { id: string; name: string }[]; cursor: string | null };
  };

  it("finds a long text literally, wildcards and all, a full page at a time in order", async () => {
    const { chatId } = newChat();
    const made = [];
    for (const [n, delay] of [
      ["1", "PT3H"],
      ["2", "PT1H"],
      ["3", "PT2H"],
    ] as const) {
      made.push(await createJob(chatId, { name: `${shared} ${n}`, kind: "prompt", delay, text: "Books." }));
    }
    // What LIKE's `_` and `%` would match, were they wildcards: never listed.
    await createJob(chatId, { name: shared.replace("_", "-").replace("%", "x"), kind: "prompt", delay: "PT30M", text: "Decoy." });
    const q = encodeURIComponent(shared);
    const first = await list(`/admin/jobs?q=${q}&limit=2`);
    expect(first.jobs.map((j) => j.name)).toEqual([`${shared} 2`, `${shared} 3`]);
    const second = await list(`/admin/jobs?q=${q}&limit=2&cursor=${first.cursor}`);
    expect(second).toEqual({ jobs: [expect.objectContaining({ id: made[0]!.id, name: `${shared} 1` })], cursor: null });
    // Latin letters in either case.
    const upper = shared.replace(/[a-z]/g, (c) => c.toUpperCase());
    expect((await list(`/admin/jobs?q=${encodeURIComponent(upper)}&limit=100`)).jobs.map((j) => j.id)).toEqual([made[1]!.id, made[2]!.id, made[0]!.id]);
  });

  it("answers every q of up to 200 characters, also multi-byte, and 400 past it", async () => {
    const { chatId } = newChat();
    await createJob(chatId, { name: `${"🎄".repeat(40)} ${"ж".repeat(39)}`, kind: "prompt", delay: "PT1H", text: "Trees." });
    const found = await list(`/admin/jobs?q=${encodeURIComponent(`${"🎄".repeat(30)} ${"ж".repeat(30)}`)}`);
    expect(found.jobs.map((j) => j.name)).toEqual([`${"🎄".repeat(40)} ${"ж".repeat(39)}`]);
    for (const q of ["🎄".repeat(200), "ж".repeat(200), "%".repeat(200), "_".repeat(200), "\\".repeat(200), "a".repeat(49), "x".repeat(200)]) {
      expect(await send("GET", `/admin/jobs?q=${encodeURIComponent(q)}`), q).toEqual({ status: 200, body: { jobs: [], cursor: null } });
      expect(await send("GET", `/admin/jobs?q=${encodeURIComponent(q)}&category=recurring`), q).toEqual({ status: 200, body: { jobs: [], cursor: null } });
      expect(await send("GET", `/admin/chats?q=${encodeURIComponent(q)}`), q).toEqual({ status: 200, body: { chats: [], cursor: null } });
    }
    // Percent-encoding that is not UTF-8 (a lone surrogate, a stray byte, a cut sequence) is text like any other.
    for (const raw of ["%ED%A0%80", "%FF", "%E2%82"]) {
      expect(await send("GET", `/admin/jobs?q=${raw}`), raw).toEqual({ status: 200, body: { jobs: [], cursor: null } });
      expect(await send("GET", `/admin/chats?q=${raw}`), raw).toEqual({ status: 200, body: { chats: [], cursor: null } });
    }
    for (const q of ["🎄".repeat(201), "x".repeat(201)]) {
      for (const path of ["/admin/jobs", "/admin/chats"]) {
        expect(await send("GET", `${path}?q=${encodeURIComponent(q)}`)).toEqual({
          status: 400,
          body: { error: { code: "bad_request", message: '"q" must be at most 200 characters long.' } },
        });
      }
    }
  });

  it("finds chats by a part of the id or the zone, literally", async () => {
    const { chatId } = newChat();
    expect((await send("PUT", `/admin/chats/${chatId}/settings`, { timeZone: "America/Argentina/ComodRivadavia" })).status).toBe(200);
    await createJob(chatId, { name: "Zone", kind: "prompt", delay: "PT1H", text: "Zone." });
    const zone = await send("GET", `/admin/chats?q=${encodeURIComponent("america/ARGENTINA/comodrivadavia")}&limit=100`).as(chatListSchema());
    expect(zone.body.chats.map((c) => c.chatId)).toContain(chatId);
    expect((await send("GET", `/admin/chats?q=${encodeURIComponent("America/Argentina_ComodRivadavia")}`).as(chatListSchema())).body.chats).toEqual([]);
  });
});
