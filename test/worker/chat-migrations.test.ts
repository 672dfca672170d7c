/**
 * The chat's SQLite migrations on a database written by an older schema: migration 6 gives each run a `kind`
 * (a waiting watcher call was told by the `{"watcher":` prefix of its message) and drops the unused meta
 * table; migration 9 copies the runs into a table that takes the new statuses and seeds each watcher's failure
 * streak from its last result; migration 11 adds the buttons of transcript entries and outbox rows, and the
 * offers; migration 12 parts open runs from settled ones, in two tables without a secondary index; migration 13
 * gives the gate's turn and the prompts in line what a model turn keeps across its tries, and a table for its
 * steps; migration 14 copies the jobs into a table that takes a recurrence rule and where a job ends; migration
 * 16 gives jobs and outbox rows their forum topic (none for the rows before it); migration 17 keeps a job's end as
 * the local date-time it was in the chat's zone (its own, else DEFAULT_TIMEZONE), which a zone change keeps. The object
 * then reads the converted rows. Chat ids 8100000 up.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../../src/chat/store/schema";
import { userMessage } from "./agent-helpers";
import { advanceTo, captureLog, chatIds, clockOf, HOUR, must, spyQueue, transcript } from "./helpers";
import { fireWatcher, settleWith, withRunner } from "./watcher-helpers";

const newChat = chatIds(8_100_000);

/** Every table of the object dropped, then the schema brought to `version` only. */
function resetTo(sql: SqlStorage, version: number): void {
  const tables = sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .toArray();
  for (const { name } of tables) sql.exec(`DROP TABLE "${name}"`);
  expect(migrate(sql, version)).toBe(version);
}

/** The indexes of a table that SQLite did not make for a key of its own. */
const indexesOf = (sql: SqlStorage, table: string): string[] =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_%' ORDER BY name", table)
    .toArray()
    .map((i) => i.name);

describe("migration 6: runs say what they are", () => {
  it("marks a waiting watcher call as a watcher run holding only the call, and leaves prompts as prompts", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId)); // the object exists, bound to its chat
    const call = { command: "curl -s https://example.com/price", timeoutSeconds: 30, timeZone: "Europe/Berlin" };
    const prompt = {
      v: 1,
      key: "pppp2:1000",
      chatId,
      timeZone: "UTC",
      source: "job",
      text: '[Scheduled job "P" (pppp2)]\nHi',
      body: "Hi",
      firedAt: "2026-12-01T09:00:00.000Z",
    };
    // Leases and due times an hour ahead on the object's clock: nothing runs out while the test reads them.
    const later = (await clockOf(stub)) + HOUR;
    const rows = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 5);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      const job =
        "INSERT INTO jobs (id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, running_run_id) VALUES (?, ?, ?, NULL, '*/10 * * * *', ?, ?, ?, 1, 0, 'admin', ?, ?)";
      sql.exec(job, "wwww2", "Price", "watcher", null, call.command, 30, later, "wwww2:1000");
      sql.exec(job, "pppp2", "P", "prompt", "Hi", null, null, later, "pppp2:1000");
      const run = "INSERT INTO runs (run_id, job_id, manual, due_at, state, status, lease_until, message) VALUES (?, ?, 0, ?, ?, ?, ?, ?)";
      sql.exec(run, "wwww2:1000", "wwww2", 1000, "dispatched", null, later, JSON.stringify({ watcher: call }));
      sql.exec(run, "wwww2:500", "wwww2", 500, "settled", "silent", null, null);
      sql.exec(run, "wwww2:400", "wwww2", 400, "settled", "matched", null, null);
      sql.exec(run, "pppp2:1000", "pppp2", 1000, "dispatched", null, later, JSON.stringify(prompt));
      expect(migrate(sql, 6)).toBe(6);
      const tables = sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray();
      expect(tables).toEqual([]);
      const converted = sql.exec<{ run_id: string; kind: string; message: string | null }>("SELECT run_id, kind, message FROM runs ORDER BY run_id").toArray();
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      return converted;
    });
    expect(rows).toEqual([
      { run_id: "pppp2:1000", kind: "prompt", message: JSON.stringify(prompt) },
      { run_id: "wwww2:1000", kind: "watcher", message: JSON.stringify(call) },
      { run_id: "wwww2:400", kind: "prompt", message: null },
      { run_id: "wwww2:500", kind: "watcher", message: null },
    ]);
    // The object reads the converted rows: the waiting watcher is running, its history is whole.
    const job = await must(stub.getJob(chatId, "wwww2"));
    expect(job.running).toBe(true);
    const runs = await must(stub.jobRuns(chatId, "wwww2"));
    expect(runs.map((r) => [r.runId, r.state, r.status])).toEqual([
      ["wwww2:1000", "dispatched", null],
      ["wwww2:500", "settled", "silent"],
      ["wwww2:400", "settled", "matched"],
    ]);
  });
});

describe("migration 9: memory, imports, and watchers that cost less", () => {
  it("keeps every run, takes the new statuses, and seeds a watcher's failure streak from its last result", async () => {
    const { chatId, stub } = newChat();
    await withRunner(stub);
    await must(stub.getSettings(chatId));
    const later = (await clockOf(stub)) + HOUR;
    const failed = JSON.stringify({ status: "failed", exitCode: 3, timedOut: false, stderrTail: "down", at: "2026-11-30T00:00:00.000Z" });
    const rows = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 8);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      const job =
        "INSERT INTO jobs (id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, last_result) VALUES (?, ?, ?, NULL, '*/10 * * * *', ?, ?, NULL, 1, 0, 'admin', ?, ?)";
      sql.exec(job, "wwww3", "Feed", "watcher", null, "curl -s https://example.com/feed", later, failed);
      // A row whose last result is not JSON: the migration passes it by (the object quarantines it when due).
      // Neither it nor the prompt is due: only the watcher fires below.
      sql.exec(job, "wwww4", "Broken", "watcher", null, "true", null, "{not json");
      sql.exec(job, "pppp3", "P", "prompt", "Hi", null, null, JSON.stringify({ status: "failed", at: "2026-11-30T00:00:00.000Z" }));
      const run = "INSERT INTO runs (run_id, job_id, manual, due_at, state, status, exit_code, detail, kind) VALUES (?, ?, 0, ?, 'settled', ?, ?, ?, ?)";
      sql.exec(run, "wwww3:500", "wwww3", 500, "failed", 3, "exit 3", "watcher");
      sql.exec(run, "pppp3:400", "pppp3", 400, "delivered", null, null, "prompt");
      expect(migrate(sql, 9)).toBe(9);
      sql.exec(
        "INSERT INTO runs (run_id, job_id, manual, due_at, state, status, kind) VALUES ('wwww3:600', 'wwww3', 0, 600, 'settled', 'transient', 'watcher')",
      );
      expect(indexesOf(sql, "runs")).toEqual(["runs_by_job", "runs_open"]);
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      return sql.exec<{ id: string; failure_streak: string | null }>("SELECT id, failure_streak FROM jobs ORDER BY id").toArray();
    });
    expect(rows).toEqual([
      { id: "pppp3", failure_streak: null },
      { id: "wwww3", failure_streak: JSON.stringify({ exitCode: 3, timedOut: false }) },
      { id: "wwww4", failure_streak: null },
    ]);
    const history = await must(stub.jobRuns(chatId, "wwww3"));
    expect(history.map((r) => [r.runId, r.status])).toEqual([
      ["wwww3:600", "transient"],
      ["wwww3:500", "failed"],
    ]);
    expect((await must(stub.jobRuns(chatId, "pppp3"))).map((r) => r.runId)).toEqual(["pppp3:400"]);
    // The streak carried over: the same failure again is not alerted, another one is.
    const job = await must(stub.getJob(chatId, "wwww3"));
    await settleWith(chatId, await fireWatcher(chatId, stub, job), { status: "failed", exitCode: 3, stderrTail: "down" });
    await settleWith(chatId, await fireWatcher(chatId, stub, job), { status: "failed", exitCode: 4, stderrTail: "other" });
    expect((await transcript(stub, chatId)).map((e) => e.text.split("\n")[0])).toEqual(['⚠️ Job "Feed" (wwww3) failed (exit 4):']);
  });
});

describe("migration 11: buttons kept with their entry, offers", () => {
  it("keeps the transcript as it was, a job's message now showing the job's buttons, and takes offers", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 10);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      const entry = "INSERT INTO transcript (at, role, source, text, job_id, run_id) VALUES (?, ?, ?, ?, ?, ?)";
      sql.exec(entry, 1000, "user", "admin", "/jobs", null, null);
      sql.exec(entry, 1001, "bot", "command", "No scheduled jobs.", null, null);
      sql.exec(entry, 2000, "bot", "job", "Time to stretch.", "k7m2q", "k7m2q:2000");
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      sql.exec("INSERT INTO offers (id, at_ms, text, created_at) VALUES ('abcdefgh', 1, 'x', 1)");
    });
    const { messages } = await must(stub.messages(chatId, 10));
    expect(messages.map(({ role, text, buttons }) => ({ role, text, buttons }))).toEqual([
      { role: "user", text: "/jobs", buttons: undefined },
      { role: "bot", text: "No scheduled jobs.", buttons: undefined },
      {
        role: "bot",
        text: "Time to stretch.",
        buttons: [
          [
            { text: "Run now", data: "r:k7m2q" },
            { text: "Pause", data: "p:k7m2q" },
            { text: "Cancel", data: "c:k7m2q" },
          ],
        ],
      },
    ]);
    // The offer written above is taken once, through a press.
    expect(await must(stub.pressButton(chatId, "n:abcdefgh"))).toEqual({ answer: "OK, no reminder." });
    expect(await must(stub.pressButton(chatId, "n:abcdefgh"))).toEqual({ answer: "This was answered already." });
  });
});

describe("migration 12: open runs apart from settled ones", () => {
  it("moves settled runs to the history, keeps open ones open (sent on at their lease), and leaves no index to write", async () => {
    const { chatId, stub } = newChat();
    const sent = await spyQueue(stub);
    await must(stub.getSettings(chatId));
    const now = await clockOf(stub);
    const message = {
      v: 1,
      key: `pppp5:${now - 1000}`,
      chatId,
      timeZone: "UTC",
      source: "job",
      text: '[Scheduled job "P" (pppp5)]\nHi',
      body: "Hi",
      firedAt: new Date(now - 1000).toISOString(),
    };
    const tables = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 11);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      sql.exec(
        "INSERT INTO jobs (id, name, kind, at_ms, cron, text, enabled, created_at, created_by, next_run_at, running_run_id) VALUES ('pppp5', 'P', 'prompt', NULL, '0 8 * * *', 'Hi', 1, 0, 'admin', ?, ?)",
        now + HOUR,
        message.key,
      );
      const run =
        "INSERT INTO runs (run_id, job_id, kind, manual, due_at, started_at, finished_at, state, status, detail, lease_until, message) VALUES (?, 'pppp5', 'prompt', 0, ?, ?, ?, ?, ?, ?, ?, ?)";
      sql.exec(run, "pppp5:100", 100, 100, 200, "settled", "delivered", null, null, null);
      sql.exec(run, "pppp5:300", 300, 300, 400, "settled", "failed", "the agent failed", null, null);
      // Dispatched a second ago and never seen by the run gate: its lease runs out a second from now.
      sql.exec(run, message.key, now - 1000, now - 1000, null, "dispatched", null, null, now + 1000, JSON.stringify(message));
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      const rows = (table: string) =>
        sql
          .exec<{ run_id: string }>(`SELECT run_id FROM ${table} ORDER BY run_id`)
          .toArray()
          .map((r) => r.run_id);
      return { runs: rows("runs"), history: rows("run_history"), indexes: [...indexesOf(sql, "runs"), ...indexesOf(sql, "run_history")] };
    });
    expect(tables).toEqual({ runs: [message.key], history: ["pppp5:100", "pppp5:300"], indexes: [] });
    const history = await must(stub.jobRuns(chatId, "pppp5"));
    expect(history.map((r) => [r.runId, r.state, r.status, r.detail])).toEqual([
      [message.key, "dispatched", null, null],
      ["pppp5:300", "settled", "failed", "the agent failed"],
      ["pppp5:100", "settled", "delivered", null],
    ]);
    // The open run is still the object's to send again once its lease has run out.
    const logged = captureLog("log");
    await advanceTo(stub, now + 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(sent.map((s) => (s.body as { key: string }).key)).toEqual([message.key]);
    expect(logged()).toEqual([`run ${message.key} did not reach the run gate within 2 min; sending it again`]);
  });
});

describe("migration 13: durable model turns", () => {
  it("keeps the gate's holder and the prompts in line as they were, nothing tried, and the holder records a step and goes on", async () => {
    const { chatId, stub } = newChat();
    await spyQueue(stub);
    await must(stub.getSettings(chatId));
    const now = await clockOf(stub);
    const [m1, m2, m3] = ["1", "2", "3"].map((id) => userMessage(chatId, id, `message ${id}`));
    const columns = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 12);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      // A holder working on m:1 (its lease an hour ahead), m:2 and m:3 waiting behind it.
      sql.exec("INSERT INTO gate (id, token, lease_until, active_key, active_message) VALUES (1, 'old-token', ?, 'm:1', ?)", now + HOUR, JSON.stringify(m1));
      sql.exec("INSERT INTO pending (key, message, received_at) VALUES ('m:2', ?, ?), ('m:3', ?, ?)", JSON.stringify(m2), now, JSON.stringify(m3), now);
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      return {
        gate: sql.exec("SELECT token, active_key, prompt, tries, retry_at FROM gate").toArray(),
        pending: sql.exec("SELECT key, prompt, tries FROM pending ORDER BY seq").toArray(),
        steps: indexesOf(sql, "turn_steps"),
      };
    });
    // The rows were written behind the object's back: what its stores keep in memory is read again.
    await stub.testForget();
    expect(columns).toEqual({
      gate: [{ token: "old-token", active_key: "m:1", prompt: null, tries: 0, retry_at: null }],
      pending: [
        { key: "m:2", prompt: null, tries: 0 },
        { key: "m:3", prompt: null, tries: 0 },
      ],
      steps: [],
    });
    // The holder of before the migration records a step of its turn, finishes it, and is handed m:2 then m:3.
    const answer = { content: null, calls: [{ id: "call_1", name: "schedule_list", args: "{}" }] };
    expect(await stub.gateStep("old-token", "m:1", { step: 0, answer })).toEqual({ ok: true, value: null });
    expect(await stub.gateStep("old-token", "m:1", { step: 0, results: [{ ok: true, text: "No scheduled jobs." }] })).toEqual({ ok: true, value: null });
    const finished = await must(
      stub.gateFinish("old-token", "m:1", { markdown: "Nothing yet.", prompt: "[header]\nmessage 1", status: "delivered", detail: null }, true),
    );
    expect(finished.next?.message.key).toBe("m:2");
    expect((await transcript(stub, chatId)).map((e) => [e.role, e.text])).toEqual([
      ["prompt", "[header]\nmessage 1"],
      ["tool", "schedule_list {}\n→ ok: No scheduled jobs."],
      ["bot", "Nothing yet."],
    ]);
    expect(await must(stub.gateNext("old-token"))).toMatchObject({ message: { key: "m:3" } });
  });
});

describe("migration 14: rule jobs and jobs that end", () => {
  it("keeps every job and column, lets a rule job be stored, and still refuses a row with two schedules", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    const later = (await clockOf(stub)) + HOUR;
    const refused = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 13);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      const job =
        "INSERT INTO jobs (id, name, kind, at_ms, cron, text, command, timeout_seconds, enabled, created_at, created_by, next_run_at, memory_refs, only_on_change, failure_streak, imported_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 0, 'admin', ?, ?, ?, ?, ?)";
      sql.exec(job, "cccc3", "Inbox", "prompt", null, "0 8 * * *", "Summarise", null, null, later, '["m4x7pq"]', 0, null, "playa:7");
      sql.exec(job, "wwww3", "Price", "watcher", later, null, null, "curl -s x", 30, later, null, 1, '{"exitCode":1,"timedOut":false}', null);
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      try {
        sql.exec(
          "INSERT INTO jobs (id, name, kind, at_ms, rrule, rule_start, text, enabled, created_at, created_by) VALUES ('xxxx3', 'X', 'prompt', 1, 'FREQ=DAILY', '2030-01-01T09:00', 'x', 1, 0, 'admin')",
        );
        return null;
      } catch (error) {
        return String(error);
      }
    });
    expect(refused).toMatch(/CHECK constraint failed/);
    expect(await must(stub.getJob(chatId, "cccc3"))).toMatchObject({
      schedule: { cron: "0 8 * * *" },
      until: null,
      runsLeft: null,
      memoryRefs: ["m4x7pq"],
      importedFrom: "playa:7",
      nextRunAt: new Date(later).toISOString(),
    });
    const watcher = await must(stub.getJob(chatId, "wwww3"));
    expect(watcher).toMatchObject({ schedule: { at: new Date(later).toISOString() }, onlyOnChange: true, timeoutSeconds: 30 });
    expect("until" in watcher || "runsLeft" in watcher).toBe(false);
    const rule = await must(
      stub.createJob(chatId, { name: "Review", kind: "prompt", text: "x", rrule: "FREQ=DAILY;COUNT=3", start: "2030-01-01T09:00" }, "admin"),
    );
    expect(rule).toMatchObject({ schedule: { rrule: "FREQ=DAILY", start: "2030-01-01T09:00" }, runsLeft: 3, until: null });
  });
});

describe("migration 16: forum topics", () => {
  it("reads the jobs and outbox rows written before it as the main thread's, and keeps a new job's topic", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    const later = (await clockOf(stub)) + HOUR;
    const rows = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 15);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      sql.exec(
        "INSERT INTO jobs (id, name, kind, at_ms, cron, text, enabled, created_at, created_by, next_run_at) VALUES ('tttt2', 'Old', 'prompt', NULL, '0 9 * * *', 'Hi', 1, 0, 'admin', ?)",
        later,
      );
      sql.exec("INSERT INTO outbox (key, created_at, markdown, job_id, run_id, next_attempt_at) VALUES ('u:1', 0, 'Hello', NULL, NULL, ?)", later);
      expect(migrate(sql)).toBe(MIGRATIONS.length);
      return {
        jobs: sql.exec("SELECT id, thread_id FROM jobs").toArray(),
        outbox: sql.exec("SELECT key, thread_id FROM outbox").toArray(),
        members: indexesOf(sql, "members"),
      };
    });
    await stub.testForget();
    expect(rows).toEqual({ jobs: [{ id: "tttt2", thread_id: null }], outbox: [{ key: "u:1", thread_id: null }], members: [] });
    const old = await must(stub.getJob(chatId, "tttt2"));
    expect([old.name, old.threadId]).toEqual(["Old", undefined]);
    const made = await must(stub.createJob(chatId, { name: "New", kind: "prompt", cron: "0 9 * * *", text: "Hi" }, "admin", { threadId: 42 }));
    expect(made.threadId).toBe(42);
  });
});

describe("migration 17: an end as the local time it was said", () => {
  /** A job with its end at `untilMs` (null: none), a cron job unless `at` is given. */
  const insert = (sql: SqlStorage, id: string, untilMs: number | null, later: number) =>
    sql.exec(
      "INSERT INTO jobs (id, name, kind, at_ms, cron, until_ms, text, enabled, created_at, created_by, next_run_at) VALUES (?, ?, 'prompt', NULL, '0 9 * * *', ?, 'Hi', 1, 0, 'admin', ?)",
      id,
      id,
      untilMs,
      later,
    );

  it("turns each until into the minute it was in the chat's own zone, and a zone change keeps it", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    const later = (await clockOf(stub)) + HOUR;
    const year = new Date(later).getUTCFullYear() + 1;
    const columns = await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 16);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?), ('time_zone', 'Asia/Tokyo')", chatId);
      // The end of 31 March in Tokyo as the API stored it (23:59:59.999 there), and as the phrase reader did (23:59).
      insert(sql, "eeee2", Date.parse(`${year}-03-31T14:59:59.999Z`), later);
      insert(sql, "eeee3", Date.parse(`${year}-03-31T14:59:00.000Z`), later);
      insert(sql, "eeee4", null, later);
      sql.exec(
        "INSERT INTO jobs (id, name, kind, at_ms, text, enabled, created_at, created_by, next_run_at) VALUES ('eeee5', 'Once', 'prompt', ?, 'Hi', 1, 0, 'admin', ?)",
        later,
        later,
      );
      expect(migrate(sql, MIGRATIONS.length, "America/New_York")).toBe(MIGRATIONS.length);
      return sql
        .exec<{ name: string }>("SELECT name FROM pragma_table_info('jobs') WHERE name LIKE 'until%'")
        .toArray()
        .map((c) => c.name);
    });
    await stub.testForget();
    expect(columns).toEqual(["until_local"]);
    const ends = async () => Promise.all(["eeee2", "eeee3", "eeee4"].map(async (id) => (await must(stub.getJob(chatId, id))).until));
    expect(await ends()).toEqual([`${year}-03-31T23:59`, `${year}-03-31T23:59`, null]);
    expect("until" in (await must(stub.getJob(chatId, "eeee5")))).toBe(false);
    await must(stub.setTimeZone(chatId, "Europe/Berlin"));
    expect(await ends()).toEqual([`${year}-03-31T23:59`, `${year}-03-31T23:59`, null]);
  });

  it("reads a chat without a zone of its own in DEFAULT_TIMEZONE", async () => {
    const { chatId, stub } = newChat();
    await must(stub.getSettings(chatId));
    const later = (await clockOf(stub)) + HOUR;
    const year = new Date(later).getUTCFullYear() + 1;
    await runInDurableObject(stub, (_instance, state) => {
      const sql = state.storage.sql;
      resetTo(sql, 16);
      sql.exec("INSERT INTO settings (key, value) VALUES ('chat_id', ?)", chatId);
      // 1 July 03:59:59.999Z is the end of 30 June in New York (EDT, UTC−4).
      insert(sql, "ffff2", Date.parse(`${year}-07-01T03:59:59.999Z`), later);
      expect(migrate(sql, MIGRATIONS.length, "America/New_York")).toBe(MIGRATIONS.length);
    });
    await stub.testForget();
    expect((await must(stub.getJob(chatId, "ffff2"))).until).toBe(`${year}-06-30T23:59`);
  });
});
