/**
 * `POST /admin/import` (docs/api.md; issue 16) with the fixtures of test/fixtures/, written from the seeds'
 * descriptions: Playa's jobs.json with its chat-settings.json (zones, a reminder, a one-off already past that
 * fires once, late), acpbot's schedule files (a disabled one-off left out, a disabled cron paused, UTC crons
 * noted, a script without its content left out), and the legacy commitments.jsonl (open records only, dated
 * at 09:00 local, undated paused at the next 09:00 and marked "(no date)"). Each invalid entry is one
 * sentence and the rest is imported; the same data again creates nothing, even after a job is gone. The
 * fixtures name their chats (9630001 up), so each is imported once in this file.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PromptMessage } from "../../src/contracts/prompt-message";
import type { Job } from "../../src/schemas/jobs";
import dentist from "../fixtures/acpbot/.acpbot/schedules/dentist.json";
import disk from "../fixtures/acpbot/.acpbot/schedules/disk.json";
import inbox from "../fixtures/acpbot/.acpbot/schedules/inbox.json";
import mum from "../fixtures/acpbot/.acpbot/schedules/mum.json";
import price from "../fixtures/acpbot/.acpbot/schedules/price.json";
import standup from "../fixtures/acpbot/.acpbot/schedules/standup.json";
import commitments from "../fixtures/commitments.jsonl?raw";
import settings from "../fixtures/playa/chat-settings.json";
import playa from "../fixtures/playa/jobs.json";
import { badRequest, chatStub, must, nextRun, queued, type Stub, send, spyQueue } from "./helpers";

const stubOf = (chatId: string): Stub => chatStub(chatId);
const jobsOf = async (chatId: string): Promise<Job[]> => (await must(stubOf(chatId).listJobs(chatId, {}))).jobs;
const byName = (jobs: Job[], name: string): Job => {
  const job = jobs.find((j) => j.name === name);
  if (!job) throw new Error(`no job ${name} in ${jobs.map((j) => j.name).join(", ")}`);
  return job;
};
const importing = (body: unknown) => send("POST", "/admin/import", body);

const FRIDAY_13TH = "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR;BYHOUR=0;BYMINUTE=0";

/** The next Friday the 13th at 00:00 in `zone`, by the calendar (the cron engine finds that day's midnight). */
function nextFriday13th(zone: string): string {
  const now = new Date();
  for (let i = 0; ; i++) {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 13));
    if (day.getUTCDay() !== 5) continue;
    // The next 13th of that month: this one, unless it has passed.
    const next = nextRun(`0 0 13 ${day.getUTCMonth() + 1} *`, zone);
    if (Date.parse(next) < day.getTime() + 86_400_000) return next;
  }
}

describe("playa", () => {
  const PROBLEMS = [
    'Playa job "x9k2p" has a "target" that is not a Telegram chat id ("group:ops"); it was left out.',
    'Playa job "e3mq7" has a "kind" that is not reminder, prompt or watcher ("email"); it was left out.',
    'Playa job "c6bad": Cronos runs "0 9 15W * MON" only on days that match both its day-of-month and its day-of-week, and no recurrence rule can say "the weekday nearest" a day and a weekday as well; rewrite it as two jobs or a rule. It was left out.',
    'Playa job "b4dcr": Invalid cron expression "61 * * * *": the minute field "61" has 61, outside 0–59; use 0–59, e.g. "0", "*/15" or "0,30". It was left out.',
  ];
  const NOTE = `Playa job "c5f13": Playa (Cronos) ran "0 0 13 * 5" only on days that match both its day-of-month and its day-of-week, where cron takes either; it was imported as the rule "${FRIDAY_13TH}", which means the same.`;

  it("imports jobs.json into each target chat with its zone; a reminder is a prompt; a past one-off fires once, late", async () => {
    const sent = await spyQueue(stubOf("9630001"));
    expect(await importing({ format: "playa", data: playa, settings })).toEqual({
      status: 200,
      body: { created: 10, skipped: 0, problems: [...PROBLEMS, NOTE] },
    });

    expect(await must(stubOf("9630001").getSettings("9630001"))).toEqual({ chatId: "9630001", timeZone: "Europe/Berlin", isDefault: false });
    // A Windows zone id, as .NET stores it, becomes the IANA name.
    expect(await must(stubOf("9630002").getSettings("9630002"))).toEqual({ chatId: "9630002", timeZone: "Asia/Tokyo", isDefault: false });

    const berlin = await jobsOf("9630001");
    expect(berlin.map((j) => j.name).sort()).toEqual([
      "Call the dentist",
      "Friday the 13th",
      "Inbox summary",
      "Invoices",
      "Night watch",
      "Payroll",
      "Planning",
      "Price check",
    ]);
    expect(byName(berlin, "Call the dentist")).toMatchObject({
      kind: "prompt",
      category: "one-time",
      schedule: { at: "2026-09-27T07:00:00.000Z" },
      text: "Remind me: call the dentist about the filling",
      createdBy: "admin",
      importedFrom: "playa:k7m2q",
    });
    expect(byName(berlin, "Inbox summary")).toMatchObject({ schedule: { cron: "0 8 * * 1-5" }, enabled: true, importedFrom: "playa:p3xz9" });
    expect(Date.parse(byName(berlin, "Inbox summary").nextRunAt!)).toBe(Date.parse(nextRun("0 8 * * 1-5", "Europe/Berlin")));
    expect(byName(berlin, "Price check")).toMatchObject({
      kind: "watcher",
      timeoutSeconds: 60,
      command: playa.jobs[2]!.command,
      lastResult: null,
      importedFrom: "playa:w8r4t",
    });

    // Cronos's dialect, whole: a range that wraps, FRIL (in either case), ? with MON#1, LW with months that wrap.
    for (const [name, cron] of [
      ["Night watch", "0 22-2 * * *"],
      ["Invoices", "0 17 * * fril"],
      ["Planning", "0 9 ? * MON#1"],
      ["Payroll", "30 8 LW NOV-FEB *"],
    ] as const) {
      expect(byName(berlin, name), name).toMatchObject({ category: "recurring", schedule: { cron }, nextRunAt: nextRun(cron, "Europe/Berlin") });
    }
    // Both day fields restricted: Cronos's Friday the 13th, as a rule that starts when it was imported.
    const friday = byName(berlin, "Friday the 13th");
    expect(friday).toMatchObject({
      category: "recurring",
      schedule: { rrule: FRIDAY_13TH },
      until: null,
      runsLeft: null,
      nextRunAt: nextFriday13th("Europe/Berlin"),
      importedFrom: "playa:c5f13",
    });
    expect((friday.schedule as { start: string }).start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);

    const tokyo = await jobsOf("9630002");
    expect(byName(tokyo, "Passport")).toMatchObject({
      schedule: { at: "2031-06-01T00:00:00.000Z" },
      nextRunAt: "2031-06-01T00:00:00.000Z",
      importedFrom: "playa:q2m8v",
    });
    expect(byName(tokyo, "Plants")).toMatchObject({
      kind: "prompt",
      schedule: { cron: "@daily" },
      nextRunAt: nextRun("@daily", "Asia/Tokyo"),
      importedFrom: "playa:n5mbr",
    });

    // The dentist reminder was due on 27 Sep: the chat's alarm fires it at once, with the late note.
    await runDurableObjectAlarm(stubOf("9630001"));
    const dentistJob = byName(berlin, "Call the dentist");
    const late = sent.map((s) => s.body as PromptMessage).filter((m) => m.jobId === dentistJob.id);
    expect(late).toHaveLength(1);
    expect(late[0]).toMatchObject({
      late: true,
      dueAt: "2026-09-27T07:00:00.000Z",
      text: `[Scheduled job "Call the dentist" (${dentistJob.id})]\nThis was due at 27 Sep 09:00; the bot was offline.\nRemind me: call the dentist about the filling`,
    });

    // The same data again creates nothing: every job remembers its source id.
    expect(await importing({ format: "playa", data: playa, settings })).toEqual({ status: 200, body: { created: 0, skipped: 10, problems: PROBLEMS } });
    expect((await jobsOf("9630001")).length + (await jobsOf("9630002")).length).toBe(10);
    expect(await queued(stubOf("9630001"))).toHaveLength(1);
  });

  it("imports only the chat given, says how many were left for other chats, and keeps a chat's own zone", async () => {
    const data = JSON.parse(JSON.stringify(playa).replaceAll("9630001", "9630011").replaceAll("9630002", "9630012")) as typeof playa;
    await must(stubOf("9630012").setTimeZone("9630012", "America/New_York"));
    const res = await importing({ format: "playa", data, settings: { version: 1, chats: { "9630012": { timeZone: "Asia/Tokyo" } } }, chatId: "9630012" });
    expect(res).toEqual({
      status: 200,
      body: {
        created: 2,
        skipped: 0,
        problems: [
          'Playa job "x9k2p" has a "target" that is not a Telegram chat id ("group:ops"); it was left out.',
          "11 Playa jobs of other chats were left out (only chat 9630012 was imported).",
          "Chat 9630012 keeps its own zone, America/New_York; Playa had Asia/Tokyo.",
        ],
      },
    });
    expect((await jobsOf("9630012")).map((j) => j.name).sort()).toEqual(["Passport", "Plants"]);
    expect(await jobsOf("9630011")).toEqual([]);
  });

  it("says what is wrong with a file that is not Playa's", async () => {
    expect((await importing({ format: "playa", data: [1, 2] })).body).toEqual({
      created: 0,
      skipped: 0,
      problems: ['"data" is not Playa\'s jobs.json: it must be an object { "version": 1, "jobs": [...] }; nothing was imported.'],
    });
  });
});

describe("acpbot", () => {
  const files = [dentist, disk, inbox, mum, price, standup];
  const LEFT_OUT = [
    'acpbot schedule "dentist" is a one-off that already fired or was cancelled (enabled: false); it was left out.',
    'acpbot schedule "disk" runs the script ".acpbot/schedules/scripts/disk.sh", whose content did not come with it ("scriptContent"); it was left out. Add the content and import again.',
  ];
  const utc = (id: string, cron: string) =>
    `acpbot schedule "${id}": acpbot ran its cron "${cron}" in UTC; it now follows this chat's zone, Europe/Berlin. Edit it if it should keep its UTC times.`;

  it("imports the schedule files of a chat: prompts, a script with its content as a watcher, a disabled cron paused", async () => {
    const chatId = "9630101";
    await must(stubOf(chatId).setTimeZone(chatId, "Europe/Berlin"));
    const problems = [...LEFT_OUT, utc("inbox", "0 8 * * 1-5"), utc("price", "*/15 * * * *"), utc("standup", "30 9 * * 1-5")];
    expect(await importing({ format: "acpbot", data: files, chatId })).toEqual({ status: 200, body: { created: 4, skipped: 0, problems } });
    const jobs = await jobsOf(chatId);
    expect(byName(jobs, inbox.prompt)).toMatchObject({
      kind: "prompt",
      text: inbox.prompt,
      schedule: { cron: "0 8 * * 1-5" },
      enabled: true,
      importedFrom: "acpbot:inbox",
    });
    expect(byName(jobs, price.prompt)).toMatchObject({
      kind: "watcher",
      command: price.scriptContent,
      schedule: { cron: "*/15 * * * *" },
      importedFrom: "acpbot:price",
    });
    expect(byName(jobs, standup.prompt)).toMatchObject({ enabled: false, nextRunAt: null, importedFrom: "acpbot:standup" });
    expect(byName(jobs, mum.prompt)).toMatchObject({ kind: "prompt", schedule: { at: "2031-03-01T18:00:00.000Z" }, enabled: true, importedFrom: "acpbot:mum" });

    expect(await importing({ format: "acpbot", data: files, chatId })).toEqual({ status: 200, body: { created: 0, skipped: 4, problems: LEFT_OUT } });
  });

  it("notes nothing about UTC for a chat whose zone is UTC", async () => {
    expect((await importing({ format: "acpbot", data: [inbox], chatId: "9630102" })).body).toEqual({ created: 1, skipped: 0, problems: [] });
  });

  it("names a long prompt that became a watcher's name, and each entry it cannot read", async () => {
    const long = { ...price, id: "long", prompt: `${"Watch the lamp price. ".repeat(5)}Tell me.` };
    const res = await importing({
      format: "acpbot",
      data: [long, "x", { id: "no-prompt", cron: "* * * * *" }, { id: "both", prompt: "p", cron: "* * * * *", once: "2031-01-01T00:00:00Z" }],
      chatId: "9630103",
    });
    expect(res.body).toEqual({
      created: 1,
      skipped: 0,
      problems: [
        'acpbot schedule "long" became a watcher running its script; its prompt is kept only as the job\'s name, "Watch the lamp price. Watch the lamp pri…".',
        "acpbot schedule #2 is not a JSON object; it was left out.",
        'acpbot schedule "no-prompt" has no "prompt"; it was left out.',
        'acpbot schedule "both" needs exactly one of "once" (an instant) and "cron"; it was left out.',
      ],
    });
    // The first line cut to 80 characters, the last of them "…".
    expect((await jobsOf("9630103"))[0]!.name).toBe(`${"Watch the lamp price. ".repeat(3)}Watch the lam…`);
  });
});

describe("commitments", () => {
  const PROBLEMS = [
    "Line 6 is not a JSON object; it was left out.",
    'Commitment "c6" (line 7) has a "due" date that is not YYYY-MM-DD ("next week"); it was left out.',
    'Line 8 has no "id"; it was left out.',
    'Commitment "c8" (line 9) has no "text"; it was left out.',
    'Commitment "c9" (line 10) has a "status" that is not "open" or "done" ("someday"); it was left out.',
  ];

  it("imports open records: dated at 09:00 local on the day, undated paused at the next 09:00 and marked (no date)", async () => {
    const chatId = "9630201";
    await spyQueue(stubOf(chatId));
    await must(stubOf(chatId).setTimeZone(chatId, "Europe/Berlin"));
    expect(await importing({ format: "commitments", data: commitments, chatId })).toEqual({
      status: 200,
      body: { created: 3, skipped: 0, problems: PROBLEMS },
    });
    const jobs = await jobsOf(chatId);
    expect(jobs.map((j) => j.name).sort()).toEqual(["Call the landlord about the heating (no date)", "Renew the car insurance", "Send the tax return"]);
    expect(byName(jobs, "Send the tax return")).toMatchObject({
      schedule: { at: "2027-04-30T07:00:00.000Z" },
      enabled: true,
      text: "Send the tax return",
      importedFrom: "commitments:c1",
    });
    expect(byName(jobs, "Renew the car insurance")).toMatchObject({
      schedule: { at: "2026-11-15T08:00:00.000Z" },
      enabled: true,
      importedFrom: "commitments:c4",
    });
    const undated = byName(jobs, "Call the landlord about the heating (no date)");
    expect(undated).toMatchObject({ enabled: false, nextRunAt: null, text: "Call the landlord about the heating", importedFrom: "commitments:c2" });
    expect(undated.schedule).toEqual({ at: nextRun("0 9 * * *", "Europe/Berlin") });

    // Once imported, always skipped: also a record whose job was cancelled since.
    await must(stubOf(chatId).cancelJob(chatId, byName(jobs, "Send the tax return").id));
    expect(await importing({ format: "commitments", data: commitments, chatId })).toEqual({
      status: 200,
      body: { created: 0, skipped: 3, problems: PROBLEMS },
    });
    expect(await jobsOf(chatId)).toHaveLength(2);
  });

  it("cuts a long undated text to fit the mark in a name, keeping the whole text as the prompt", async () => {
    const text = "x".repeat(100);
    const res = await importing({ format: "commitments", data: JSON.stringify({ id: 7, text, status: "open" }), chatId: "9630202" });
    expect(res.body).toEqual({ created: 1, skipped: 0, problems: [] });
    const [job] = await jobsOf("9630202");
    expect(job).toMatchObject({ name: `${"x".repeat(69)}… (no date)`, text, importedFrom: "commitments:7" });
  });
});

describe("the request", () => {
  it("needs chatId for acpbot and commitments, takes settings only for playa, and one of the three formats", async () => {
    expect(await importing({ format: "acpbot", data: [] })).toEqual(
      badRequest('"chatId" is required for the acpbot format: the chat its schedules go to, such as "123456789".'),
    );
    expect(await importing({ format: "commitments", data: "" })).toEqual(
      badRequest('"chatId" is required for the commitments format: the chat its commitments go to, such as "123456789".'),
    );
    expect(await importing({ format: "commitments", data: "", chatId: "9630301", settings: {} })).toEqual(
      badRequest('"settings" applies only to the playa format (Playa\'s chat-settings.json).'),
    );
    expect(await importing({ format: "csv", data: "" })).toEqual(badRequest('"format" must be "playa", "acpbot" or "commitments".'));
    expect(await importing({ format: "acpbot", data: [], chatId: "group" })).toEqual(
      badRequest('"chatId" must be a decimal Telegram chat id such as "123456789".'),
    );
  });

  it("takes a body up to 1 MiB (a store with its scripts), not more", async () => {
    const big = { format: "commitments", chatId: "9630302", data: `${JSON.stringify({ id: "a", text: "t", status: "done" })}\n`.repeat(8000) };
    expect(JSON.stringify(big).length).toBeGreaterThan(64 * 1024);
    expect(await importing(big)).toEqual({ status: 200, body: { created: 0, skipped: 0, problems: [] } });
    const tooBig = { ...big, data: "x".repeat(1024 * 1024) };
    expect(await importing(tooBig)).toEqual({ status: 413, body: { error: { code: "payload_too_large", message: "The body is larger than 1 MiB." } } });
  });
});
