/**
 * The tool endpoints for agents (docs/api.md#tools-for-agents): `schedule` with each action and its text, `set_timezone`, every
 * input problem as `200 { ok: false, text }`, and the few HTTP errors (access, 413, a path that is not a
 * chat id). Each test uses its own chat id (3200xx).
 */
import { describe, expect, it } from "vitest";
import { chatSettingsSchema } from "../../src/schemas/chats";
import { type Job, jobListSchema, jobReply } from "../../src/schemas/jobs";
import { toolReplySchema } from "../../src/schemas/tools";
import { formatDayMonthTime } from "../../src/time";
import { badRequest, call, deployed, envWith, ISO_INSTANT, JOB_ID, newYears, objectExists, postJson, send, UTC_NOW_LINE } from "./helpers";

const schedule = (chatId: string, body: unknown, testEnv?: Env) => send("POST", `/tools/${chatId}/schedule`, body, testEnv);
const setTimezone = (chatId: string, body: unknown) => send("POST", `/tools/${chatId}/set_timezone`, body);
const refused = (text: string) => ({ status: 200, body: { ok: false, text } });
const lines = (text: string) => text.split("\n");

const NEW_YEAR = { name: "New year", kind: "prompt", cron: "0 0 1 1 *", text: "Happy new year" };

/** Creates a job through the tool and returns it (the create must succeed). */
async function created(chatId: string, fields: Record<string, unknown> = NEW_YEAR): Promise<Job> {
  const res = await schedule(chatId, { action: "create", ...fields }).as(toolReplySchema());
  expect(res.body.ok, res.body.text).toBe(true);
  expect(res.body.data?.job, "data.job").toBeDefined();
  return res.body.data!.job!;
}

describe("schedule: create", () => {
  it("creates a recurring prompt: the job line, its next runs and the Now: line; data { job }, createdBy agent", async () => {
    const res = await schedule("320001", { action: "create", ...NEW_YEAR }).as(toolReplySchema());
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["ok", "text", "data"]);
    const job = res.body.data!.job!;
    expect(res.body.data).toEqual({
      job: {
        id: expect.stringMatching(JOB_ID),
        chatId: "320001",
        name: "New year",
        kind: "prompt",
        category: "recurring",
        schedule: { cron: "0 0 1 1 *" },
        until: null,
        runsLeft: null,
        text: "Happy new year",
        enabled: true,
        createdAt: expect.stringMatching(ISO_INSTANT),
        createdBy: "agent",
        nextRunAt: newYears().iso[0],
        lastRunAt: null,
        lastResult: null,
        running: false,
        hook: false,
        model: null,
        missed: "once",
        grace: "PT1M",
        before: [],
        repeat: null,
      },
    });
    const { shown } = newYears();
    const text = lines(res.body.text);
    expect(text.slice(0, 2)).toEqual([
      `Created \`${job.id}\` 💬 New year · every year on 1 January at 00:00 · next ${shown[0]}`,
      `Next runs: ${shown.join(", ")}.`,
    ]);
    expect(text).toHaveLength(3);
    expect(text[2]).toMatch(UTC_NOW_LINE);
    expect((await send("GET", `/admin/chats/320001/jobs/${job.id}`).as(jobReply())).body.job).toEqual(job);
  });

  it("creates a one-off: `once` and its time, then the Now: line", async () => {
    const res = await schedule("320002", { action: "create", name: "Dentist", kind: "prompt", at: "2031-06-02T09:30", text: "Call the dentist" }).as(
      toolReplySchema(),
    );
    expect(res.body.ok).toBe(true);
    const text = lines(res.body.text);
    expect(text[0]).toBe(`Created \`${res.body.data!.job!.id}\` 💬 Dentist · once 2 Jun 2031 09:30`);
    expect(text).toHaveLength(2);
    expect(text[1]).toMatch(UTC_NOW_LINE);
  });

  it("takes null for a field not meant, as strict function-calling models send it", async () => {
    const res = await schedule("320003", {
      action: "create",
      id: null,
      name: "Mum",
      kind: "reminder",
      at: "2031-06-02",
      cron: null,
      delay: null,
      text: "call mum",
      command: null,
      timeoutSeconds: null,
    }).as(toolReplySchema());
    expect(res.body.ok).toBe(true);
    expect(res.body.data!.job).toMatchObject({ kind: "prompt", text: "Remind me: call mum", schedule: { at: "2031-06-02T09:00:00.000Z" } });
  });

  it("answers each rule of docs/api.md#jobs as ok: false with its sentence, and stores nothing", async () => {
    const chat = "320004";
    const prompt = { action: "create", name: "P", kind: "prompt", text: "Hi" };
    const cases: [unknown, string][] = [
      [{ action: "create", kind: "prompt", cron: "0 9 * * *", text: "Hi" }, '"name" is required for create, such as "Inbox summary".'],
      [
        { action: "create", name: "P", cron: "0 9 * * *", text: "Hi" },
        '"kind" is required for create: "prompt" (the agent does "text") or "watcher" (a script in "command").',
      ],
      [
        { ...prompt, at: "2031-01-01", cron: "0 9 * * *" },
        'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".',
      ],
      [
        { ...prompt, cron: "0 9 * * MON#6" },
        'Invalid cron expression "0 9 * * MON#6": the day-of-week field "MON#6" has "MON#6"; "#" takes a week from 1 to 5 after a weekday, e.g. "MON#1"; use 0–7 (0 and 7 are Sunday) or SUN–SAT, e.g. "1-5", "MON,WED,FRI", "5L" (the last Friday) or "MON#1" (the first Monday).',
      ],
      [{ ...prompt, cron: "0 0 30 2 *" }, 'The cron expression "0 0 30 2 *" never fires within 5 years; check its day-of-month, month and day-of-week fields.'],
      [
        { ...prompt, at: "tomorrow" },
        '"at" must be an ISO 8601 date or date and time such as 2026-12-01T09:00 (read in UTC) or 2026-12-01T09:00:00Z; got "tomorrow".',
      ],
      [{ ...prompt, cron: "0 9 * * *", command: "true" }, 'A prompt job takes "text", not "command"; use kind "watcher" to run a script.'],
      [{ ...prompt, cron: "0 9 * * *", timeoutSeconds: 30 }, '"timeoutSeconds" applies only to watchers.'],
      [
        { action: "create", name: "W", kind: "watcher", cron: "0 9 * * *", command: "true", text: "Hi" },
        'A watcher takes "command", not "text": its script\'s output becomes the prompt.',
      ],
      [
        { ...prompt, cron: "0 9 * * *", id: "abcde" },
        '"id" does not apply to "create", which takes only "name", "kind", "at", "cron", "delay", "rrule", "start", "trigger", "until", "runsLeft", "text", "command", "timeoutSeconds", "memoryRefs", "onlyOnChange", "silent", "model", "missed", "before", "repeat" and "grace".',
      ],
    ];
    for (const [body, text] of cases) expect(await schedule(chat, body), JSON.stringify(body)).toEqual(refused(text));
    expect((await send("GET", `/admin/chats/${chat}/jobs`).as(jobListSchema())).body.jobs).toEqual([]);
  });
});

describe("schedule: list", () => {
  it("says `No scheduled jobs.` and the Now: line for an empty chat; data { jobs: [] }", async () => {
    const res = await schedule("320010", { action: "list" }).as(toolReplySchema());
    expect(res).toEqual({ status: 200, body: { ok: true, text: expect.any(String), data: { jobs: [] } } });
    const text = lines(res.body.text);
    expect(text[0]).toBe("No scheduled jobs.");
    expect(text).toHaveLength(2);
    expect(text[1]).toMatch(UTC_NOW_LINE);
  });

  it("lists the chat's jobs with the header, a line each, paused last, and the Now: line", async () => {
    const chat = "320011";
    const yearly = await created(chat);
    const once = await created(chat, { name: "Dentist", kind: "prompt", at: "2031-06-02T09:30Z", text: "Call" });
    const paused = await created(chat, { name: "Stretch", kind: "prompt", cron: "0 0 1 7 *", text: "Stretch" });
    await schedule(chat, { action: "pause", id: paused.id });
    const before = Date.now();
    const res = await schedule(chat, { action: "list" }).as(toolReplySchema());
    const after = Date.now();
    const text = lines(res.body.text);
    expect([before, after].map((t) => `**Scheduled jobs** (UTC, now ${formatDayMonthTime(t, "UTC")})`)).toContain(text[0]);
    expect(text.slice(1, 4)).toEqual([
      `\`${yearly.id}\` 💬 New year · every year on 1 January at 00:00 · next ${newYears().shown[0]}`,
      `\`${once.id}\` 💬 Dentist · once 2 Jun 2031 09:30`,
      `\`${paused.id}\` 💬 Stretch · every year on 1 July at 00:00 · paused`,
    ]);
    expect(text).toHaveLength(5);
    expect(text[4]).toMatch(UTC_NOW_LINE);
    expect(res.body.data!.jobs!.map((j) => j.id).sort()).toEqual([yearly.id, once.id, paused.id].sort());
  });

  it("takes no other fields", async () => {
    expect(await schedule("320012", { action: "list", name: "x" })).toEqual(refused('"name" does not apply to "list", which takes no other fields.'));
  });
});

describe("schedule: cancel, pause, resume, run_now", () => {
  it("cancels: `Cancelled <id> (<name>).`, data { job }; the job is gone", async () => {
    const job = await created("320020");
    expect(await schedule("320020", { action: "cancel", id: job.id })).toEqual({
      status: 200,
      body: { ok: true, text: `Cancelled ${job.id} (New year).`, data: { job } },
    });
    expect(await schedule("320020", { action: "cancel", id: job.id })).toEqual(refused(`No job ${job.id} in this chat.`));
  });

  it("pauses and resumes with the texts of docs/telegram.md and the next run", async () => {
    const job = await created("320021");
    expect(await schedule("320021", { action: "pause", id: job.id })).toEqual({
      status: 200,
      body: { ok: true, text: `Paused ${job.id} (New year).`, data: { job: { ...job, enabled: false, nextRunAt: null } } },
    });
    expect(await schedule("320021", { action: "resume", id: job.id })).toEqual({
      status: 200,
      body: { ok: true, text: `Resumed ${job.id} (New year); next ${newYears().shown[0]}.`, data: { job } },
    });
  });

  it("runs now, and refuses a second run while the first is in flight", async () => {
    const job = await created("320022");
    const res = await schedule("320022", { action: "run_now", id: job.id });
    expect(res).toEqual({
      status: 200,
      body: { ok: true, text: `Running ${job.id} (New year) now.`, data: { job: { ...job, running: true, lastRunAt: expect.stringMatching(ISO_INSTANT) } } },
    });
    expect(await schedule("320022", { action: "run_now", id: job.id })).toEqual(refused(`Job ${job.id} is still running.`));
  });

  it("needs an id, and answers an unknown or impossible one with `No job <id> in this chat.`", async () => {
    for (const action of ["cancel", "run_now", "pause", "resume"]) {
      expect(await schedule("320023", { action }), action).toEqual(refused(`"id" is required for ${action}; see "list".`));
      expect(await schedule("320023", { action, id: "" }), action).toEqual(refused(`"id" is required for ${action}; see "list".`));
      expect(await schedule("320023", { action, id: "zzzzz" }), action).toEqual(refused("No job zzzzz in this chat."));
      // Ids are read case-insensitively (a person or a model may shout one back): K7M2Q is k7m2q.
      expect(await schedule("320023", { action, id: "K7M2Q" }), action).toEqual(refused("No job k7m2q in this chat."));
      expect(await schedule("320023", { action, id: 12345 }), action).toEqual(refused('"id" must be a job id such as "k7m2q"; see "list".'));
      expect(await schedule("320023", { action, id: "zzzzz", name: "x" }), action).toEqual(
        refused(`"name" does not apply to "${action}", which takes only "id".`),
      );
    }
  });
});

describe("schedule: preview and test", () => {
  it("previews a cron: the description, the next runs in chat time, the Now: line; data { occurrences }", async () => {
    const res = await schedule("320030", { action: "preview", cron: "0 0 1 1 *" }).as(toolReplySchema());
    const { iso, shown } = newYears();
    expect(res.body.ok).toBe(true);
    expect(res.body.data!.occurrences!.slice(0, 3)).toEqual(iso);
    expect(res.body.data!.occurrences).toHaveLength(5);
    const text = lines(res.body.text);
    expect(text[0]).toBe("every year on 1 January at 00:00 (UTC)");
    expect(text[1]).toMatch(new RegExp(`^Next runs: ${shown.join(", ")}, 1 Jan \\d{4} 00:00, 1 Jan \\d{4} 00:00\\.$`));
    expect(text).toHaveLength(3);
    expect(text[2]).toMatch(UTC_NOW_LINE);
  });

  it("previews in the chat's zone, with a note for a time a DST transition moves", async () => {
    const chat = "320031";
    expect((await setTimezone(chat, { zone: "Europe/Berlin" }).as(toolReplySchema())).body.ok).toBe(true);
    const res = await schedule(chat, { action: "preview", at: "2031-03-30T02:30" }).as(toolReplySchema());
    // An `at` in a gap moves forward by the gap (docs/time.md): 02:30 becomes 03:30 CEST.
    expect(res.body.data).toEqual({ occurrences: ["2031-03-30T01:30:00.000Z"] });
    const text = lines(res.body.text);
    expect(text.slice(0, 3)).toEqual([
      "Sun 30 Mar 2031 03:30 (Europe/Berlin)",
      "Runs: 30 Mar 2031 03:30.",
      "Note: 2031-03-30 02:30 does not exist in Europe/Berlin; runs at 03:30.",
    ]);
    expect(text[3]).toMatch(/^Now: \w{3} \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Europe\/Berlin, UTC\+0[12]:00\)$/);
  });

  it("refuses a preview without exactly one schedule, or with one the rules reject", async () => {
    const one = 'Give exactly one of "at", "cron", "delay" or "rrule" (with "start"), such as "cron": "0 8 * * 1-5" or "delay": "PT20M".';
    expect(await schedule("320032", { action: "preview" })).toEqual(refused(one));
    expect(await schedule("320032", { action: "preview", cron: "0 9 * * *", delay: "PT1H" })).toEqual(refused(one));
    expect(await schedule("320032", { action: "preview", delay: "PT10S" })).toEqual(
      refused('"delay" must be from 1 minute (PT1M) to 5 years (P5Y); got "PT10S".'),
    );
    expect(await schedule("320032", { action: "preview", cron: "0 9 * * *", text: "Hi" })).toEqual(
      refused('"text" does not apply to "preview", which takes only "at", "cron", "delay", "rrule", "start", "until" and "runsLeft".'),
    );
  });

  it("answers test with ok: false when no runner is configured, and schedules nothing", async () => {
    expect(await schedule("320033", { action: "test", command: "echo hi" })).toEqual(
      refused(
        "Testing a watcher needs the runner: set RUNNER_SECRET to use the runner container, or RUNNER_URL and RUNNER_SECRET for a runner elsewhere (npm run dev starts one). Nothing was run.",
      ),
    );
    expect((await send("GET", "/admin/chats/320033/jobs").as(jobListSchema())).body.jobs).toEqual([]);
  });
});

describe("schedule: bad input is 200 ok: false", () => {
  it("answers malformed JSON, wrong types, unknown fields and actions with a sentence", async () => {
    const action = '"action" must be one of "create", "update", "list", "cancel", "run_now", "pause", "resume", "skip", "hook", "preview" or "test".';
    const cases: [unknown, string][] = [
      ["{", "The body is not valid JSON; send a JSON object."],
      ["", "The body must be a JSON object."],
      ["[]", "The body must be a JSON object."],
      [{}, action],
      [{ action: "delete" }, action],
      [{ action: 1 }, action],
      [{ action: "list", verbose: true }, 'Unknown field "verbose".'],
      [{ action: "create", name: 5, kind: "prompt", cron: "0 9 * * *", text: "Hi" }, '"name" must be a string such as "Inbox summary".'],
      [{ action: "create", name: "P", kind: "task", cron: "0 9 * * *", text: "Hi" }, '"kind" must be "prompt" or "watcher".'],
      [
        { action: "create", name: "W", kind: "watcher", cron: "0 9 * * *", command: "true", timeoutSeconds: "60" },
        '"timeoutSeconds" must be a whole number of seconds from 1 to 3600.',
      ],
    ];
    for (const [body, text] of cases) expect(await schedule("320040", body), JSON.stringify(body)).toEqual(refused(text));
  });

  it("answers a body over 64 KiB with 413", async () => {
    const res = await schedule("320041", { action: "create", name: "Big", kind: "prompt", cron: "0 9 * * *", text: "x".repeat(70_000) });
    expect(res).toEqual({ status: 413, body: { error: { code: "payload_too_large", message: "The body is larger than 64 KiB." } } });
  });

  it("answers a path that is not a chat id with 400, creating no Durable Object", async () => {
    for (const path of ["/tools/0042/schedule", "/tools/0042/set_timezone"]) {
      expect(await send("POST", path, { action: "list", zone: "UTC" })).toEqual(
        badRequest('"0042" is not a Telegram chat id; use a decimal id such as 123456789 or -1001234567890.'),
      );
    }
    expect(await objectExists("0042")).toBe(false);
  });

  it("answers an unknown tool with 404", async () => {
    expect(await send("POST", "/tools/320042/edit", {})).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: "No route POST /tools/320042/edit; see GET /admin/openapi.json." } },
    });
  });
});

describe("access to the tools", () => {
  const TOKEN = "tools-token-91c2";

  it("answers 401 when TOOLS_TOKEN is set and no bearer token is sent, and lets the right one through", async () => {
    const withToken = deployed({ TOOLS_TOKEN: TOKEN });
    const res = await call("/tools/320050/schedule", postJson({ action: "list" }), withToken);
    expect(res.status).toBe(401);
    expect(res.headers.get("WWW-Authenticate")).toBe("Bearer");
    expect(await res.json()).toEqual({ error: { code: "unauthorized", message: 'Send TOOLS_TOKEN as "Authorization: Bearer <token>".' } });
    expect(await schedule("320050", "{", withToken)).toEqual({
      status: 401,
      body: { error: { code: "unauthorized", message: 'Send TOOLS_TOKEN as "Authorization: Bearer <token>".' } },
    });
    const wrong = await call("/tools/320050/set_timezone", postJson({ zone: "UTC" }, { Authorization: "Bearer nope" }), withToken);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: "unauthorized", message: "The bearer token does not match TOOLS_TOKEN." } });
    const right = await call("/tools/320050/schedule", postJson({ action: "list" }, { Authorization: `Bearer ${TOKEN}` }), withToken);
    expect(right.status).toBe(200);
    expect(((await right.json()) as { ok: boolean }).ok).toBe(true);
  });

  it("does not take ADMIN_TOKEN for the tools", async () => {
    const both = deployed({ TOOLS_TOKEN: TOKEN, ADMIN_TOKEN: "admin-token-0000" });
    const res = await call("/tools/320051/schedule", postJson({ action: "list" }, { Authorization: "Bearer admin-token-0000" }), both);
    expect(res.status).toBe(401);
  });

  it("answers 503 deployed without TOOLS_TOKEN, 403 to a foreign page in open dev mode, 500 on a config error", async () => {
    expect(await schedule("320052", { action: "list" }, deployed())).toEqual({
      status: 503,
      body: { error: { code: "not_configured", message: "Set the TOOLS_TOKEN secret (wrangler secret put TOOLS_TOKEN) to use the tools API." } },
    });
    const foreign = await call("/tools/320052/schedule", postJson({ action: "list" }, { Origin: "https://evil.example" }));
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({
      error: {
        code: "forbidden",
        message: 'The open dev API answers only pages on localhost, 127.0.0.1 or [::1]; the Origin header is "https://evil.example".',
      },
    });
    expect(await schedule("320052", { action: "list" }, envWith({ MAX_JOBS_PER_CHAT: "lots" }))).toEqual({
      status: 500,
      body: { error: { code: "config_error", message: expect.stringContaining("MAX_JOBS_PER_CHAT") } },
    });
  });
});

describe("isolation", () => {
  it("never shows or touches another chat's job through the tools", async () => {
    const job = await created("320060");
    for (const action of ["cancel", "run_now", "pause", "resume"])
      expect(await schedule("320061", { action, id: job.id }), action).toEqual(refused(`No job ${job.id} in this chat.`));
    expect((await schedule("320061", { action: "list" }).as(toolReplySchema())).body.data).toEqual({ jobs: [] });
    expect(await send("GET", `/admin/chats/320061/jobs/${job.id}`)).toEqual({
      status: 404,
      body: { error: { code: "not_found", message: `No job ${job.id} in this chat.` } },
    });
    expect((await send("GET", `/admin/chats/320060/jobs/${job.id}`).as(jobReply())).body.job).toEqual(job);
  });
});

describe("set_timezone", () => {
  async function setZone(chatId: string, zone: unknown) {
    const before = Date.now();
    const res = await setTimezone(chatId, { zone }).as(toolReplySchema());
    const after = Date.now();
    return { res, nows: (z: string) => [...new Set([formatDayMonthTime(before, z), formatDayMonthTime(after, z)])] };
  }

  it("sets the zone and answers the reply of docs/time.md as { ok, text }", async () => {
    const chat = "320070";
    await created(chat);
    const { res, nows } = await setZone(chat, "Asia/Tokyo");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["ok", "text"]);
    expect(res.body.ok).toBe(true);
    expect(nows("Asia/Tokyo").map((n) => `Time zone set to Asia/Tokyo (UTC+09:00). Now ${n}. 1 recurring job now follows this zone.`)).toContain(res.body.text);
    expect((await send("GET", `/admin/chats/${chat}/settings`)).body).toEqual({ chatId: chat, timeZone: "Asia/Tokyo", isDefault: false });
  });

  it('goes back to the default with "reset" or null', async () => {
    for (const reset of ["reset", "Reset", null]) {
      const chat = "320071";
      await setZone(chat, "Europe/Berlin");
      const { res, nows } = await setZone(chat, reset);
      expect(
        nows("UTC").map((n) => ({ ok: true, text: `Time zone set to UTC (UTC+00:00, default). Now ${n}.` })),
        String(reset),
      ).toContainEqual(res.body);
      expect((await send("GET", `/admin/chats/${chat}/settings`).as(chatSettingsSchema())).body.isDefault).toBe(true);
    }
  });

  it("answers an unknown zone and a wrong body with ok: false and a sentence", async () => {
    const zone = '"zone" must be an IANA zone name such as "Europe/Berlin", or "reset" for the default zone.';
    expect(await setTimezone("320072", { zone: "Mars/Olympus" })).toEqual(
      refused('Unknown time zone "Mars/Olympus". Use an IANA name such as Europe/Berlin or America/New_York.'),
    );
    expect(await setTimezone("320072", {})).toEqual(refused(zone));
    expect(await setTimezone("320072", { zone: 3 })).toEqual(refused(zone));
    expect(await setTimezone("320072", { zone: "UTC", timeZone: "UTC" })).toEqual(refused('Unknown field "timeZone".'));
    expect(await setTimezone("320072", "Asia/Tokyo")).toEqual(refused("The body is not valid JSON; send a JSON object."));
    expect((await send("GET", "/admin/chats/320072/settings").as(chatSettingsSchema())).body.isDefault).toBe(true);
  });
});

describe("odd input to the tools", () => {
  it("never answers anything but 200 with a sentence", async () => {
    const chat = "320080";
    const odd: unknown[] = [
      '{"__proto__": {"action": "list"}}',
      { action: "create", name: { $gt: "" }, kind: "prompt", cron: "0 9 * * *", text: "Hi" },
      { action: "create", name: "N", kind: "prompt", at: "9999-12-31T23:59:59Z", text: "Hi" },
      { action: "create", name: "N", kind: "prompt", delay: "P99999999999Y", text: "Hi" },
      { action: "preview", cron: "*/0 * * * *" },
      { action: "preview", at: "2031-02-30" },
      { action: "cancel", id: ["abcde"] },
      { action: "run_now", id: "x".repeat(5000) },
      "[".repeat(5000) + "]".repeat(5000),
      "\uFEFF{}",
      "null",
    ];
    for (const body of odd) {
      const res = await schedule(chat, body).as(toolReplySchema());
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(200);
      expect(res.body.ok).toBe(false);
      expect(res.body.text, JSON.stringify(body).slice(0, 80)).toMatch(/^\S.*[.)]$/);
    }
    expect(await schedule(chat, { action: "cancel", id: "y".repeat(50) })).toEqual(refused(`No job ${"y".repeat(40)}… in this chat.`));
  });
});
