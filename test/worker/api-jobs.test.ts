/**
 * The admin job routes (docs/api.md) through the app as a client calls them: success shapes with
 * every field, each validation sentence of the edge and of the chat's Durable Object, ids, isolation,
 * bodies. Each test uses its own chat id (3100xx).
 */
import { describe, expect, it } from "vitest";
import { errorEnvelope } from "../../src/schemas/errors";
import { type Job, jobListSchema, jobReply } from "../../src/schemas/jobs";
import {
  answerAs,
  badRequest,
  call,
  chatStub,
  createJob,
  ISO_INSTANT,
  inObject,
  JOB_ID,
  must,
  newYears,
  nextRun,
  noJob,
  objectExists,
  send,
  spyQueue,
  utcWall,
} from "./helpers";

const jobsOf = (chatId: string) => `/admin/chats/${chatId}/jobs`;
const MIN = 60_000;
const HOUR = 60 * MIN;

describe("POST /admin/chats/:chatId/jobs", () => {
  it("creates a recurring prompt: 201 { job } with every field, createdBy admin", async () => {
    const before = Date.now();
    const res = await send("POST", jobsOf("310001"), { name: "Inbox summary", kind: "prompt", cron: "0 8 * * 1-5", text: "Summarise my inbox" }).as(jobReply());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(["job"]);
    const job = res.body.job;
    expect(job).toEqual({
      id: expect.stringMatching(JOB_ID),
      chatId: "310001",
      name: "Inbox summary",
      kind: "prompt",
      category: "recurring",
      schedule: { cron: "0 8 * * 1-5" },
      until: null,
      runsLeft: null,
      text: "Summarise my inbox",
      enabled: true,
      createdAt: expect.stringMatching(ISO_INSTANT),
      createdBy: "admin",
      nextRunAt: nextRun("0 8 * * 1-5", "UTC", Date.parse(job.createdAt)),
      lastRunAt: null,
      lastResult: null,
      running: false,
      hook: false,
      model: null,
      missed: "once",
      grace: "PT1M",
      before: [],
      repeat: null,
    });
    expect(Date.parse(job.createdAt)).toBeGreaterThanOrEqual(before);
  });

  it("creates a one-off prompt from an `at` read in the chat's zone", async () => {
    const job = await createJob("310002", { name: "Dentist", kind: "prompt", at: "2031-06-02T09:30", text: "Call the dentist" });
    expect(job).toMatchObject({
      category: "one-time",
      schedule: { at: "2031-06-02T09:30:00.000Z" },
      nextRunAt: "2031-06-02T09:30:00.000Z",
      text: "Call the dentist",
    });
  });

  it("turns a delay into an `at`", async () => {
    const job = await createJob("310003", { name: "Tea", kind: "prompt", delay: "PT20M", text: "Tea is ready" });
    const at = Date.parse(job.createdAt) + 20 * MIN;
    expect(job).toMatchObject({ category: "one-time", schedule: { at: new Date(at).toISOString() }, nextRunAt: new Date(at).toISOString() });
  });

  it("creates a watcher with the default timeout and no text", async () => {
    const job = await createJob("310004", { name: "Price check", kind: "watcher", cron: "*/10 * * * *", command: "echo hi" });
    expect(job).toMatchObject({ kind: "watcher", category: "monitoring", command: "echo hi", timeoutSeconds: 300 });
    expect(job).not.toHaveProperty("text");
  });

  it("stores the legacy kind reminder as a prompt with the text `Remind me: <text>`", async () => {
    const job = await createJob("310005", { name: "Mum", kind: "reminder", at: "2031-06-02", text: "call mum" });
    expect(job).toMatchObject({ kind: "prompt", category: "one-time", text: "Remind me: call mum", schedule: { at: "2031-06-02T09:00:00.000Z" } });
  });

  it("answers each rule of docs/api.md#jobs with its sentence, and stores nothing", async () => {
    const chat = "310006";
    const prompt = { name: "P", kind: "prompt", text: "Hi" };
    const past = Date.now() - 3 * HOUR - 5 * MIN;
    const cases: [unknown, string][] = [
      [{ kind: "prompt", cron: "0 9 * * *", text: "Hi" }, '"name" is required, such as "Inbox summary".'],
      [{ ...prompt, name: "   " }, '"name" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.'],
      [{ ...prompt, name: "x".repeat(81), cron: "0 9 * * *" }, '"name" must be 1 to 80 characters long; got 81.'],
      [{ ...prompt, kind: "bot", cron: "0 9 * * *" }, '"kind" must be "prompt" or "watcher".'],
      [
        { ...prompt, at: "2031-01-01", cron: "0 9 * * *" },
        'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".',
      ],
      [prompt, 'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".'],
      [{ ...prompt, cron: "0 9 * * *", color: "red" }, 'Unknown field "color".'],
      [{ ...prompt, cron: 9 }, '"cron" must be a string such as "0 8 * * 1-5".'],
      [{ ...prompt, name: 5, cron: "0 9 * * *" }, '"name" must be a string such as "Inbox summary".'],
      [
        { name: "W", kind: "watcher", cron: "0 9 * * *", command: "true", timeoutSeconds: "10" },
        '"timeoutSeconds" must be a whole number of seconds from 1 to 3600.',
      ],
      [
        { name: "W", kind: "watcher", cron: "0 9 * * *", command: "true", timeoutSeconds: 1.5 },
        '"timeoutSeconds" must be a whole number of seconds from 1 to 3600.',
      ],
      [
        { name: "W", kind: "watcher", cron: "0 9 * * *", command: "true", timeoutSeconds: 3601 },
        '"timeoutSeconds" must be a whole number of seconds from 1 to 3600; got 3601.',
      ],
      [
        { ...prompt, cron: "0 0 9 * * *" },
        'Invalid cron expression "0 0 9 * * *": it has 6 fields (seconds are not supported); use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily".',
      ],
      [{ ...prompt, cron: "@reboot" }, '"@reboot" is not supported: a chat has no start-up to run at; use a time such as "@daily" or "0 9 * * *".'],
      [{ ...prompt, at: new Date(past).toISOString() }, `"at" must be in the future; ${utcWall(past)} in UTC was 3 hours ago.`],
      [{ ...prompt, delay: "PT30S" }, '"delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "PT30S".'],
      [{ ...prompt, cron: "0 9 * * *", command: "true" }, 'A prompt job takes "text", not "command"; use kind "watcher" to run a script.'],
      [{ name: "P", kind: "prompt", cron: "0 9 * * *" }, 'A prompt job needs "text": what the agent should do, such as "Summarise my inbox".'],
      [{ ...prompt, cron: "0 9 * * *", timeoutSeconds: 10 }, '"timeoutSeconds" applies only to watchers.'],
      [
        { name: "W", kind: "watcher", cron: "0 9 * * *", command: "true", text: "Hi" },
        'A watcher takes "command", not "text": its script\'s output becomes the prompt.',
      ],
      [{ name: "W", kind: "watcher", cron: "0 9 * * *" }, 'A watcher needs "command": a /bin/sh script that prints only when its condition holds.'],
      [[prompt], "The body must be a JSON object."],
      ["null", "The body must be a JSON object."],
      ["", "The body must be a JSON object."],
      ['{"name": "P",', "The body is not valid JSON; send a JSON object."],
    ];
    for (const [body, message] of cases) {
      expect(await send("POST", jobsOf(chat), body), JSON.stringify(body)).toEqual(badRequest(message));
    }
    expect((await send("GET", jobsOf(chat)).as(jobListSchema())).body.jobs).toEqual([]);
  });

  it("refuses a job beyond MAX_JOBS_PER_CHAT with the sentence of docs/api.md#jobs", async () => {
    const chat = "310007";
    // The first 50 made inside the object, in one round trip from the test (not 50 requests).
    await inObject(chatStub(chat), async (object) => {
      for (let i = 0; i < 50; i++) await must(object.createJob(chat, { name: `Job ${i}`, kind: "prompt", cron: "0 9 * * *", text: "Hi" }, "admin"));
    });
    const res = await send("POST", jobsOf(chat), { name: "One more", kind: "prompt", cron: "0 9 * * *", text: "Hi" });
    expect(res).toEqual(badRequest("This chat already has 50 jobs (the limit); cancel one first."));
    expect((await send("GET", jobsOf(chat)).as(jobListSchema())).body.jobs).toHaveLength(50);
  });

  it("answers 413 for a body over 64 KiB and stores nothing", async () => {
    const res = await send("POST", jobsOf("310008"), { name: "Big", kind: "prompt", cron: "0 9 * * *", text: "x".repeat(70_000) });
    expect(res).toEqual({ status: 413, body: { error: { code: "payload_too_large", message: "The body is larger than 64 KiB." } } });
    expect((await send("GET", jobsOf("310008")).as(jobListSchema())).body.jobs).toEqual([]);
  });
});

describe("chat ids", () => {
  it("refuses a chat id that is not a Telegram chat id with 400, before any Durable Object exists", async () => {
    for (const chatId of ["007", "abc", "1e5", "12345678901234567", "-0", "0"]) {
      for (const [method, path] of [
        ["GET", jobsOf(chatId)],
        ["POST", jobsOf(chatId)],
        ["GET", `${jobsOf(chatId)}/abcde`],
        ["POST", `${jobsOf(chatId)}/abcde/run`],
        ["GET", `/admin/chats/${chatId}/settings`],
        ["DELETE", `/admin/chats/${chatId}`],
      ] as const) {
        const res = await send(method, path, method === "POST" ? { name: "x", kind: "prompt", cron: "0 9 * * *", text: "Hi" } : undefined);
        expect(res, `${method} ${path}`).toEqual(badRequest(`"${chatId}" is not a Telegram chat id; use a decimal id such as 123456789 or -1001234567890.`));
      }
      expect(await objectExists(chatId), chatId).toBe(false);
    }
  });

  it("creates the chat's object for a valid id (the check above can see one)", async () => {
    expect(await objectExists("-1003100090")).toBe(false);
    expect((await send("GET", jobsOf("-1003100090"))).status).toBe(200);
    expect(await objectExists("-1003100090")).toBe(true);
  });

  it("answers a job id outside the alphabet with 404 without asking the Durable Object", async () => {
    for (const id of ["ABCDE", "abcd", "abcdef", "abcd1", "abcdo"]) {
      expect(await send("GET", `${jobsOf("310091")}/${id}`), id).toEqual(noJob(id));
      expect(await send("POST", `${jobsOf("310091")}/${id}/pause`), id).toEqual(noJob(id));
    }
    expect(await objectExists("310091")).toBe(false);
  });
});

describe("GET /admin/chats/:chatId/jobs", () => {
  it("lists an unused chat's empty state", async () => {
    const before = Date.now();
    const res = await send("GET", jobsOf("310010")).as(jobListSchema());
    expect(res).toEqual({ status: 200, body: { chatId: "310010", timeZone: "UTC", language: "en", now: expect.stringMatching(ISO_INSTANT), jobs: [] } });
    expect(Date.parse(res.body.now)).toBeGreaterThanOrEqual(before);
  });

  it("filters by ?category= and ?q=, and ignores empty and unknown parameters", async () => {
    const chat = "310011";
    const daily = await createJob(chat, { name: "Inbox summary", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    const once = await createJob(chat, { name: "Dentist", kind: "prompt", at: "2031-06-02T09:30", text: "Call the DENTIST" });
    const watch = await createJob(chat, { name: "Price", kind: "watcher", cron: "*/10 * * * *", command: "curl -s shop" });
    const ids = async (query: string) => (await send("GET", `${jobsOf(chat)}${query}`).as(jobListSchema())).body.jobs.map((j) => j.id).sort();
    expect(await ids("")).toEqual([daily.id, once.id, watch.id].sort());
    expect(await ids("?category=recurring")).toEqual([daily.id]);
    expect(await ids("?category=one-time")).toEqual([once.id]);
    expect(await ids("?category=monitoring")).toEqual([watch.id]);
    expect(await ids("?q=dentist")).toEqual([once.id]);
    expect(await ids("?q=SHOP")).toEqual([watch.id]);
    expect(await ids(`?q=${daily.id}`)).toEqual([daily.id]);
    expect(await ids("?category=recurring&q=dentist")).toEqual([]);
    expect(await ids("?category=&q=")).toEqual([daily.id, once.id, watch.id].sort());
    expect(await ids("?_=1700000000")).toEqual([daily.id, once.id, watch.id].sort());
  });

  it("refuses an unknown category and an overlong query with a sentence", async () => {
    expect(await send("GET", `${jobsOf("310012")}?category=daily`)).toEqual(
      badRequest('"category" must be "one-time", "recurring", "monitoring" or "triggered".'),
    );
    expect(await send("GET", `${jobsOf("310012")}?q=${"x".repeat(201)}`)).toEqual(badRequest('"q" must be at most 200 characters long.'));
  });

  it("reads a repeated parameter's first value, and checks the chat id before the query", async () => {
    const chat = "310013";
    const once = await createJob(chat, { name: "Dentist", kind: "prompt", at: "2031-06-02T09:30", text: "Call the dentist" });
    const listed = await send("GET", `${jobsOf(chat)}?category=one-time&category=daily`).as(jobListSchema());
    expect(listed.body.jobs.map((j) => j.id)).toEqual([once.id]);
    expect(await send("GET", "/admin/chats/12ab/jobs?category=daily")).toEqual(
      badRequest('"12ab" is not a Telegram chat id; use a decimal id such as 123456789 or -1001234567890.'),
    );
  });
});

describe("GET, PATCH and DELETE /admin/chats/:chatId/jobs/:id", () => {
  it("gets a job as { job }", async () => {
    const job = await createJob("310020", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    expect(await send("GET", `${jobsOf("310020")}/${job.id}`)).toEqual({ status: 200, body: { job } });
  });

  it("answers an unknown id with 404 and the sentence", async () => {
    expect(await send("GET", `${jobsOf("310021")}/zzzzz`)).toEqual(noJob("zzzzz"));
    expect(await send("PATCH", `${jobsOf("310021")}/zzzzz`, { name: "x" })).toEqual(noJob("zzzzz"));
    expect(await send("DELETE", `${jobsOf("310021")}/zzzzz`)).toEqual(noJob("zzzzz"));
    expect(await send("GET", `${jobsOf("310021")}/zzzzz/runs`)).toEqual(noJob("zzzzz"));
  });

  it("applies an edit of the name and the cron, with a new next run", async () => {
    const job = await createJob("310022", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    const res = await send("PATCH", `${jobsOf("310022")}/${job.id}`, { name: "New year", cron: "0 0 1 1 *", text: "Happy new year" });
    expect(res).toEqual({
      status: 200,
      body: { job: { ...job, name: "New year", schedule: { cron: "0 0 1 1 *" }, text: "Happy new year", nextRunAt: newYears().iso[0] } },
    });
    expect(await send("GET", `${jobsOf("310022")}/${job.id}`)).toEqual({ status: 200, body: res.body });
  });

  it("turns a recurring job into a one-off by an edit of `at`", async () => {
    const job = await createJob("310023", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    const res = await send("PATCH", `${jobsOf("310023")}/${job.id}`, { at: "2031-06-02T09:30Z" }).as(jobReply());
    expect(res.status).toBe(200);
    expect(res.body.job).toMatchObject({ category: "one-time", schedule: { at: "2031-06-02T09:30:00.000Z" }, nextRunAt: "2031-06-02T09:30:00.000Z" });
  });

  it("refuses a bad edit with its sentence and changes nothing", async () => {
    const chat = "310024";
    const prompt = await createJob(chat, { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    const watcher = await createJob(chat, { name: "Price", kind: "watcher", cron: "*/10 * * * *", command: "true" });
    const cases: [Job, unknown, string][] = [
      [prompt, { kind: "watcher" }, 'Unknown field "kind".'],
      [
        prompt,
        { at: "2031-01-01", cron: "0 9 * * *" },
        'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".',
      ],
      [prompt, { name: "" }, '"name" must hold a visible character, such as "Inbox summary"; got only spaces or invisible characters.'],
      [prompt, { command: "true" }, 'A prompt job takes "text", not "command"; use kind "watcher" to run a script.'],
      [prompt, { timeoutSeconds: 5 }, '"timeoutSeconds" applies only to watchers.'],
      [
        prompt,
        { cron: "0 9 * *" },
        'Invalid cron expression "0 9 * *": it has 4 fields; use 5 fields (minute hour day-of-month month day-of-week) such as "0 8 * * 1-5", or a macro such as "@daily".',
      ],
      [watcher, { text: "Hi" }, 'A watcher takes "command", not "text": its script\'s output becomes the prompt.'],
      [watcher, { timeoutSeconds: 0 }, '"timeoutSeconds" must be a whole number of seconds from 1 to 3600; got 0.'],
      [prompt, "[]", "The body must be a JSON object."],
      [prompt, "{", "The body is not valid JSON; send a JSON object."],
    ];
    for (const [job, body, message] of cases) {
      expect(await send("PATCH", `${jobsOf(chat)}/${job.id}`, body), JSON.stringify(body)).toEqual(badRequest(message));
    }
    expect((await send("GET", `${jobsOf(chat)}/${prompt.id}`).as(jobReply())).body.job).toEqual(prompt);
    expect((await send("GET", `${jobsOf(chat)}/${watcher.id}`).as(jobReply())).body.job).toEqual(watcher);
  });

  it("cancels with 204 and no body; the job is then gone", async () => {
    const job = await createJob("310025", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    const res = await call(`${jobsOf("310025")}/${job.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await send("GET", `${jobsOf("310025")}/${job.id}`)).toEqual(noJob(job.id));
    expect(await send("DELETE", `${jobsOf("310025")}/${job.id}`)).toEqual(noJob(job.id));
  });

  it("takes no body on DELETE: {} is fine, anything else is 400", async () => {
    const job = await createJob("310026", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    expect(await send("DELETE", `${jobsOf("310026")}/${job.id}`, { force: true })).toEqual(badRequest('Unknown field "force".'));
    expect(await send("DELETE", `${jobsOf("310026")}/${job.id}`, "[]")).toEqual(badRequest("The body must be a JSON object."));
    expect((await send("GET", `${jobsOf("310026")}/${job.id}`)).status).toBe(200);
    expect(await send("DELETE", `${jobsOf("310026")}/${job.id}`, {})).toEqual({ status: 204, body: null });
  });
});

describe("POST …/jobs/:id/run, /pause, /resume and GET …/runs", () => {
  it("runs a job now: { job } in flight, one manual run dispatched; a second run now is 409", async () => {
    const chat = "310030";
    // The run stays in flight: its prompt goes to a spy, not to the consumer that would answer it at once.
    await spyQueue(chatStub(chat));
    const job = await createJob(chat, { name: "New year", kind: "prompt", cron: "0 0 1 1 *", text: "Happy new year" });
    const before = Date.now();
    const res = await send("POST", `${jobsOf(chat)}/${job.id}/run`).as(jobReply());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ job: { ...job, running: true, lastRunAt: expect.stringMatching(ISO_INSTANT) } });
    const ranAt = Date.parse(res.body.job.lastRunAt!);
    expect(ranAt).toBeGreaterThanOrEqual(before);

    expect(await send("POST", `${jobsOf(chat)}/${job.id}/run`, {})).toEqual({
      status: 409,
      body: { error: { code: "conflict", message: `Job ${job.id} is still running.` } },
    });

    const runs = await send("GET", `${jobsOf(chat)}/${job.id}/runs`);
    expect(runs).toEqual({
      status: 200,
      body: {
        runs: [
          {
            runId: `${job.id}:${ranAt}`,
            manual: true,
            dueAt: new Date(ranAt).toISOString(),
            startedAt: expect.stringMatching(ISO_INSTANT),
            finishedAt: null,
            state: "dispatched",
            status: null,
            exitCode: null,
            timedOut: false,
            late: false,
            detail: null,
          },
        ],
      },
    });
    // Run now reschedules nothing.
    expect((await send("GET", `${jobsOf(chat)}/${job.id}`).as(jobReply())).body.job.nextRunAt).toBe(job.nextRunAt);
  });

  it("answers { runs: [] } for a job that never ran", async () => {
    const job = await createJob("310031", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    expect(await send("GET", `${jobsOf("310031")}/${job.id}/runs`)).toEqual({ status: 200, body: { runs: [] } });
  });

  it("pauses (nextRunAt null) and resumes (next run recomputed from now)", async () => {
    const chat = "310032";
    const job = await createJob(chat, { name: "New year", kind: "prompt", cron: "0 0 1 1 *", text: "Happy new year" });
    const paused = await send("POST", `${jobsOf(chat)}/${job.id}/pause`).as(jobReply());
    expect(paused).toEqual({ status: 200, body: { job: { ...job, enabled: false, nextRunAt: null } } });
    expect((await send("GET", `${jobsOf(chat)}/${job.id}`).as(jobReply())).body.job).toEqual(paused.body.job);
    const resumed = await send("POST", `${jobsOf(chat)}/${job.id}/resume`, {});
    expect(resumed).toEqual({ status: 200, body: { job: { ...job, enabled: true, nextRunAt: newYears().iso[0] } } });
  });

  it("keeps a one-off's time when it is paused and resumed before it", async () => {
    const job = await createJob("310033", { name: "Dentist", kind: "prompt", at: "2031-06-02T09:30", text: "Call" });
    await send("POST", `${jobsOf("310033")}/${job.id}/pause`);
    expect((await send("POST", `${jobsOf("310033")}/${job.id}/resume`).as(jobReply())).body.job).toEqual(job);
  });

  it("takes no body on /run, /pause and /resume: empty or {} only", async () => {
    const chat = "310034";
    const job = await createJob(chat, { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    for (const action of ["run", "pause", "resume"]) {
      const path = `${jobsOf(chat)}/${job.id}/${action}`;
      expect(await send("POST", path, { now: true }), action).toEqual(badRequest('Unknown field "now".'));
      expect(await send("POST", path, "[]"), action).toEqual(badRequest("The body must be a JSON object."));
      expect(await send("POST", path, "now"), action).toEqual(badRequest("The body is not valid JSON; send a JSON object."));
    }
    expect((await send("GET", `${jobsOf(chat)}/${job.id}`).as(jobReply())).body.job).toEqual(job);
  });

  it("answers an unknown id on each action with 404", async () => {
    for (const action of ["run", "pause", "resume"]) expect(await send("POST", `${jobsOf("310035")}/zzzzz/${action}`), action).toEqual(noJob("zzzzz"));
  });
});

describe("isolation", () => {
  it("never shows or touches another chat's job", async () => {
    const job = await createJob("310040", { name: "Secret", kind: "prompt", cron: "0 8 * * *", text: "Mine" });
    const other = jobsOf("310041");
    expect(await send("GET", `${other}/${job.id}`)).toEqual(noJob(job.id));
    expect(await send("PATCH", `${other}/${job.id}`, { name: "Stolen" })).toEqual(noJob(job.id));
    expect(await send("DELETE", `${other}/${job.id}`)).toEqual(noJob(job.id));
    for (const action of ["run", "pause", "resume"]) expect(await send("POST", `${other}/${job.id}/${action}`)).toEqual(noJob(job.id));
    expect(await send("GET", `${other}/${job.id}/runs`)).toEqual(noJob(job.id));
    expect((await send("GET", other).as(jobListSchema())).body.jobs).toEqual([]);
    expect((await send("GET", `${jobsOf("310040")}/${job.id}`).as(jobReply())).body.job).toEqual(job);
  });
});

describe("odd input", () => {
  const odd: unknown[] = [
    '{"__proto__": {"name": "x"}}',
    '{"constructor": {"prototype": {}}}',
    { name: { $gt: "" }, kind: "prompt", cron: "0 9 * * *", text: "Hi" },
    { name: "N", kind: ["prompt"], cron: "0 9 * * *", text: "Hi" },
    { name: "N", kind: "prompt", cron: "0 9 * * *", text: "Hi", timeoutSeconds: 1e308 },
    { name: "N", kind: "watcher", cron: "0 9 * * *", command: "true", timeoutSeconds: -0 },
    { name: "N", kind: "prompt", at: "9999-12-31T23:59:59Z", text: "Hi" },
    { name: "N", kind: "prompt", at: "2031-02-30", text: "Hi" },
    { name: "N", kind: "prompt", delay: "P99999999999Y", text: "Hi" },
    { name: "N", kind: "prompt", cron: "*/0 * * * *", text: "Hi" },
    { name: "N", kind: "prompt", cron: "0 9 * * *\u0000", text: "Hi" },
    { name: "\u{1F600}".repeat(80), kind: "prompt", cron: "0 9 * * *", text: "\uD800" },
    "[".repeat(5000) + "]".repeat(5000),
    "\uFEFF{}",
    "true",
    "1",
  ];

  it("never answers 500 on any admin job route", async () => {
    const chat = "310050";
    const job = await createJob(chat, { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    for (const body of odd) {
      for (const [method, path] of [
        ["POST", jobsOf(chat)],
        ["PATCH", `${jobsOf(chat)}/${job.id}`],
        ["POST", `${jobsOf(chat)}/${job.id}/pause`],
        ["PUT", `/admin/chats/${chat}/settings`],
      ] as const) {
        const res = await send(method, path, body);
        expect([200, 201, 400], `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`).toContain(res.status);
        if (res.status === 400) expect(answerAs(res, errorEnvelope()).body.error.message).toMatch(/^\S.*[.)]$/);
      }
    }
  });

  it("answers an edit of nothing ({}) with the job unchanged", async () => {
    const job = await createJob("310051", { name: "Inbox", kind: "prompt", cron: "0 8 * * *", text: "Summarise" });
    expect(await send("PATCH", `${jobsOf("310051")}/${job.id}`, {})).toEqual({ status: 200, body: { job } });
  });
});
