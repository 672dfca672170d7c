/**
 * A basic group becoming a supergroup (issue 26, docs/telegram.md), through the webhook with the pair of service
 * messages Telegram sends (the old group's `migrate_to_chat_id`, the new supergroup's `migrate_from_chat_id`)
 * and through a send answered "group chat was upgraded to a supergroup chat": the chat's jobs, settings, memory,
 * transcript and directory rows move to the new id, the old object keeps only a forwarding note, and the new id
 * is served as the old one was without a change to ALLOWED_CHAT_IDS (the log says to add it). A crash between
 * the steps (tried by leaving a step undone) is finished by the next call or the alarm, with nothing taken twice
 * and nothing lost. A move is Telegram's or nothing (issue 32): a service message that Telegram does not confirm
 * (getChatMemberCount on the old id answering "upgraded" with the new id), that names a supergroup as the old
 * chat, or a basic group as the new one, moves nothing and is logged in one line. Basic groups -4531000000 up,
 * their supergroups -100<the same digits>; user 5290003 is in ALLOWED_USER_IDS, 5290002 is a member.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type MoveChunk, MoveStore } from "../../src/chat/store/moves";
import { chatListSchema } from "../../src/schemas/directory";
import { renderTelegramHtml } from "../../src/telegram/render";
import { BOT_USERNAME, basicGroup, groupText, migrateFrom, migrateTo, person, supergroup } from "../group-updates";
import { alarmOf, brief, chatStub, jobsOf, must, send, sql, transcript } from "./helpers";
import { type Call, delivered, expectReply, newUpdateId, postUpdate, type TelegramChat, TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 30_000 });
const bot = new TestBot("migration");
const CY = person(5290003, "Cy");
const BOB = person(5290002, "Bob");
let next = 0;

beforeAll(async () => {
  await bot.script("getMe", [
    {
      kind: "ok",
      result: {
        id: Number(bot.id),
        is_bot: true,
        first_name: "Cuckoo",
        username: BOT_USERNAME,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      },
    },
  ]);
});

/** A listed basic group with a job, a zone and a memory record, and the (unlisted) supergroup it will become. */
async function groupAndSupergroup(): Promise<{ old: TelegramChat; fresh: TelegramChat; jobId: string }> {
  const digits = 4531000000 + next++;
  const oldId = `-${digits}`;
  const freshId = `-100${digits}`;
  const vars = { allowed: [String(CY.id)], chats: [oldId] };
  const old = await telegramChat(bot, oldId, vars);
  // The supergroup's object runs with the same vars (in production every object has the Worker's).
  const fresh = await telegramChat(bot, freshId, vars);
  const [made] = await say(old, groupText(newUpdateId(), basicGroup(oldId), CY, "/every day at 8 water the plants"));
  await say(old, groupText(newUpdateId(), basicGroup(oldId), CY, "/timezone Europe/Berlin"));
  await must(old.stub.createMemory(oldId, { title: "Plants", body: "The fern likes it damp." }));
  // From here on Telegram answers the old id as a group that moved (getChatMemberCount confirms the move).
  await bot.upgraded(oldId, freshId);
  return { old, fresh, jobId: /<code>([a-z2-9]{5})<\/code>/.exec(String(made!.params.text))![1]! };
}

const hook = (...chats: string[]) => bot.env([String(CY.id)], chats);

/** Posts an update (the old group listed) and returns the replies in `chat` (`count` of them). */
async function say(chat: TelegramChat, update: unknown, count = 1, listed = chat.chatId): Promise<Call[]> {
  const before = (await bot.sends(chat.chatId)).length;
  expect((await postUpdate(hook(listed), update)).status).toBe(200);
  return (await delivered(bot, chat, before + count)).slice(before);
}

/** What the old object still holds: every row of every table but the schema's version and its D1 fingerprints. */
async function leftIn(chat: TelegramChat): Promise<Record<string, unknown[]>> {
  const tables = (
    await sql<{ name: string }>(
      chat.stub,
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf%' ESCAPE '\\' AND name NOT IN ('schema_version', 'sqlite_sequence', 'directory')",
    )
  ).map((r) => r.name);
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const rows = await sql(chat.stub, `SELECT * FROM "${table}"`);
    if (rows.length > 0) out[table] = rows;
  }
  return out;
}

/** What the supergroup's object shows: its jobs, zone, memory and transcript. */
async function shown(chat: TelegramChat) {
  const jobs = (await jobsOf(chat)).map((j) => ({ id: j.id, name: j.name, schedule: j.schedule, enabled: j.enabled }));
  const settings = await must<{ chatId: string; timeZone: string; isDefault: boolean }>(chat.stub.getSettings(chat.chatId));
  const memory = (await must<{ title: string; body: string }[]>(chat.stub.listMemory(chat.chatId))).map((m) => ({ title: m.title, body: m.body }));
  return { jobs, settings, memory, transcript: brief(await transcript(chat.stub, chat.chatId)) };
}

/** The chats the D1 directory lists. */
const directory = async (chatIds: string[]) =>
  (await send("GET", "/admin/chats", undefined, hook()).as(chatListSchema())).body.chats
    .filter((c) => chatIds.includes(c.chatId))
    .map((c) => ({ chatId: c.chatId, jobs: c.jobs, timeZone: c.timeZone }));

describe("the pair of messages Telegram sends", () => {
  it("moves everything to the supergroup, keeps a forwarding note, serves the new id, and the second message changes nothing", async () => {
    const { old, fresh, jobId } = await groupAndSupergroup();
    const before = await shown(old);
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    expect((await postUpdate(hook(old.chatId), migrateTo(newUpdateId(), old.chatId, fresh.chatId, CY))).status).toBe(200);
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
      `chat ${old.chatId} became supergroup ${fresh.chatId}: its jobs, settings, memory and transcript moved there, and ${fresh.chatId} is served as ${old.chatId} was; add ${fresh.chatId} to ALLOWED_CHAT_IDS`,
    ]);
    logged.mockRestore();
    // Telegram was asked, once, about the old id, and said it moved.
    expect((await bot.calls({ chatId: old.chatId, method: "getChatMemberCount" })).map((c) => c.answered)).toEqual([400]);
    // Everything is the supergroup's now, as it was: the same job, zone, memory and conversation.
    expect(await shown(fresh)).toEqual({ ...before, settings: { ...before.settings, chatId: fresh.chatId } });
    expect(before.jobs.map((j) => j.id)).toEqual([jobId]);
    // The old object keeps its chat id and the note, and hands on every call that names it.
    expect(await leftIn(old)).toEqual({
      settings: [
        { key: "chat_id", value: old.chatId },
        { key: "moved_to", value: fresh.chatId },
      ],
    });
    expect((await must(old.stub.listJobs(old.chatId, {}))).jobs.map((j) => j.id)).toEqual([jobId]);
    expect(await directory([old.chatId, fresh.chatId])).toEqual([{ chatId: fresh.chatId, jobs: 1, timeZone: "Europe/Berlin" }]);
    // The supergroup is served though only the old id is listed: a member reads its jobs there.
    const [list] = await say(fresh, groupText(newUpdateId(), supergroup(fresh.chatId, "Family"), BOB, "/jobs"), 1, old.chatId);
    expect(String(list!.params.text)).toContain(`<code>${jobId}</code> 💬 water the plants · every day at 08:00 · `);
    // Telegram's other message of the pair finds the move done.
    const entries = (await transcript(fresh.stub, fresh.chatId)).length;
    expect((await postUpdate(hook(old.chatId), migrateFrom(newUpdateId(), fresh.chatId, old.chatId, CY))).status).toBe(200);
    expect((await jobsOf(fresh)).length).toBe(1);
    expect((await transcript(fresh.stub, fresh.chatId)).length).toBe(entries);
  });

  it("leaves the update for Telegram to send again when Telegram cannot be asked, and moves when it comes again", async () => {
    const { old, fresh, jobId } = await groupAndSupergroup();
    const before = await shown(old);
    await bot.script("getChatMemberCount", [{ kind: "500" }], old.chatId);
    const update = migrateTo(newUpdateId(), old.chatId, fresh.chatId, CY);
    const failed = vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await postUpdate(hook(old.chatId), update)).status).toBe(503);
    expect(failed.mock.calls.map((c) => String(c[0]))).toEqual([
      `telegram: update ${update.update_id}: the move of chat ${old.chatId} to ${fresh.chatId} is left for Telegram to send again: ` +
        "Telegram could not be asked whether the group moved: Telegram getChatMemberCount failed (500): Internal Server Error",
    ]);
    failed.mockRestore();
    // Nothing moved, nothing was written in either object.
    expect(await shown(old)).toEqual(before);
    expect(await jobsOf(fresh)).toEqual([]);
    // Telegram sends the update again; now it answers, and the group moves.
    const logged = vi.spyOn(console, "log").mockImplementation(() => {});
    expect((await postUpdate(hook(old.chatId), update)).status).toBe(200);
    logged.mockRestore();
    expect((await bot.calls({ chatId: old.chatId, method: "getChatMemberCount" })).map((c) => c.answered)).toEqual([500, 400]);
    expect((await jobsOf(fresh)).map((j) => j.id)).toEqual([jobId]);
  });

  it("moves on the supergroup's message alone (migrate_from_chat_id), when it comes first", async () => {
    const { old, fresh, jobId } = await groupAndSupergroup();
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect((await postUpdate(hook(old.chatId), migrateFrom(newUpdateId(), fresh.chatId, old.chatId, CY))).status).toBe(200);
    vi.restoreAllMocks();
    expect((await jobsOf(fresh)).map((j) => j.id)).toEqual([jobId]);
    expect(await leftIn(old)).toEqual({
      settings: [
        { key: "chat_id", value: old.chatId },
        { key: "moved_to", value: fresh.chatId },
      ],
    });
  });

  it("ignores the pair for a group that is not served, in one log line", async () => {
    const { old, fresh } = await groupAndSupergroup();
    const update = migrateTo(newUpdateId(), old.chatId, fresh.chatId, CY);
    expect(await refusedMove(hook(), update)).toEqual([refusal(update, old.chatId, fresh.chatId, `Chat ${old.chatId} is not served, so nothing of it moves.`)]);
    expect((await jobsOf(old)).length).toBe(1);
    expect(await jobsOf(fresh)).toEqual([]);
  });
});

/** The one line logged for a move refused. */
const refusal = (update: { update_id: number }, from: string, to: string, why: string) =>
  `telegram: update ${update.update_id}: chat ${from} did not move to ${to}: ${why}`;

/** Posts an update that announces a move and returns what was logged: the one line of a move refused. */
async function refusedMove(env: Env, update: { update_id: number }): Promise<string[]> {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const logs = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    expect((await postUpdate(env, update)).status).toBe(200);
    return [...logs.mock.calls, ...errors.mock.calls].map((c) => c.map(String).join(" "));
  } finally {
    errors.mockRestore();
    logs.mockRestore();
  }
}

/** A listed supergroup (`-100…`) with a job, as a chat that never was a basic group. */
async function listedSupergroup(): Promise<{ chat: TelegramChat; jobId: string }> {
  const id = `-100${4529500000 + next++}`;
  const chat = await telegramChat(bot, id, { allowed: [String(CY.id)], chats: [id] });
  const [made] = await say(chat, groupText(newUpdateId(), supergroup(id), CY, "/every day at 8 stretch"));
  return { chat, jobId: /<code>([a-z2-9]{5})<\/code>/.exec(String(made!.params.text))![1]! };
}

/** What a chat holds as the webhook's callers see it, and the settings rows that a move writes (none). */
async function held(chat: TelegramChat) {
  const notes = await sql(chat.stub, "SELECT key FROM settings WHERE key IN ('moving_to', 'moved_to', 'moved_from')");
  return { ...(await shown(chat)), notes };
}

describe("a move Telegram did not make", () => {
  it("a forged migrate_from_chat_id into an unlisted supergroup moves nothing: the old chat named is a supergroup", async () => {
    const { chat: listed, jobId } = await listedSupergroup();
    const taker = `-100${4529600000 + next++}`;
    const before = await held(listed);
    const update = migrateFrom(newUpdateId(), taker, listed.chatId, BOB);
    expect(await refusedMove(hook(listed.chatId), update)).toEqual([
      refusal(update, listed.chatId, taker, `Chat ${listed.chatId} is not a basic group; only a basic group becomes a supergroup.`),
    ]);
    expect(await held(listed)).toEqual(before);
    expect(before.jobs.map((j) => j.id)).toEqual([jobId]);
    expect(await jobsOf({ chatId: taker, stub: chatStub(taker) })).toEqual([]);
    expect(await bot.calls({ method: "getChatMemberCount", chatId: listed.chatId })).toEqual([]);
  });

  it("a forged migrate_to_chat_id between two listed groups moves nothing: Telegram says the old one is still a group", async () => {
    const { old } = await groupAndSupergroup();
    const { chat: other } = await listedSupergroup();
    const [a, b] = [await held(old), await held(other)];
    const update = migrateTo(newUpdateId(), old.chatId, other.chatId, BOB);
    // The old group did move, but to its own supergroup: Telegram names that one.
    const elsewhere = await refusedMove(hook(old.chatId, other.chatId), update);
    const fresh = `-100${old.chatId.slice(1)}`;
    expect(elsewhere).toEqual([
      refusal(
        update,
        old.chatId,
        other.chatId,
        `Telegram did not confirm that chat ${old.chatId} became supergroup ${other.chatId}: Telegram says it became ${fresh}.`,
      ),
    ]);
    // A group that Telegram says is still a group (getChatMemberCount answers its count).
    const still = `-${4529700000 + next++}`;
    const group = await telegramChat(bot, still, { allowed: [String(CY.id)], chats: [still] });
    await say(group, groupText(newUpdateId(), basicGroup(still), CY, "/remind tomorrow 9am call mum"));
    const c = await held(group);
    const forged = migrateTo(newUpdateId(), still, other.chatId, BOB);
    expect(await refusedMove(hook(still, other.chatId), forged)).toEqual([
      refusal(
        forged,
        still,
        other.chatId,
        `Telegram did not confirm that chat ${still} became supergroup ${other.chatId}: getChatMemberCount answered 3, so it is still a group.`,
      ),
    ]);
    expect([await held(old), await held(other), await held(group)]).toEqual([a, b, c]);
    expect((await bot.calls({ method: "getChatMemberCount", chatId: still })).map((call) => call.answered)).toEqual([200]);
  });

  it("a supergroup named as the old chat, or a basic group as the new one, moves nothing", async () => {
    const { chat: listed } = await listedSupergroup();
    const { old } = await groupAndSupergroup();
    const [a, b] = [await held(listed), await held(old)];
    const target = `-100${4529800000 + next++}`;
    const id = newUpdateId();
    const fromSuper = {
      update_id: id,
      message: { message_id: id % 100_000, from: CY, chat: supergroup(listed.chatId), date: 1, migrate_to_chat_id: Number(target) },
    };
    expect(await refusedMove(hook(listed.chatId), fromSuper)).toEqual([
      refusal(fromSuper, listed.chatId, target, `Chat ${listed.chatId} is not a basic group; only a basic group becomes a supergroup.`),
    ]);
    const basic = `-${4529900000 + next++}`;
    const toBasic = migrateTo(newUpdateId(), old.chatId, basic, CY);
    expect(await refusedMove(hook(old.chatId), toBasic)).toEqual([
      refusal(toBasic, old.chatId, basic, `"${basic}" is not a supergroup's chat id such as -1001234567890; a group moves only to a supergroup.`),
    ]);
    expect([await held(listed), await held(old)]).toEqual([a, b]);
    for (const chatId of [listed.chatId, old.chatId]) expect(await bot.calls({ method: "getChatMemberCount", chatId })).toEqual([]);
  });
});

describe("a send answered: the group was upgraded to a supergroup", () => {
  it("moves the chat to the supergroup the answer names and sends the message there", async () => {
    const { old, fresh } = await groupAndSupergroup();
    await bot.script("sendMessage", [{ kind: "migrated", migrateTo: Number(fresh.chatId) }], old.chatId);
    vi.spyOn(console, "log").mockImplementation(() => {});
    const refused = await say(old, groupText(newUpdateId(), basicGroup(old.chatId), CY, "/status"));
    vi.restoreAllMocks();
    expect(refused[0]!.answered).toBe(400);
    const [sent] = await delivered(bot, fresh, 1);
    expect(String(sent!.params.chat_id)).toBe(fresh.chatId);
    expect(String(sent!.params.text)).toMatch(/^<b>Jobs:<\/b> 1\n<b>Time zone:<\/b> Europe\/Berlin/);
    expect(await leftIn(old)).toEqual({
      settings: [
        { key: "chat_id", value: old.chatId },
        { key: "moved_to", value: fresh.chatId },
      ],
    });
  });
});

describe("a send answered with a move the chat cannot make", () => {
  it("gives the message up once, instead of sending it again at once and for ever", async () => {
    const { old } = await groupAndSupergroup();
    // Telegram names a basic group as where it went: no move is made to one, so nowhere is left to send it.
    const nowhere = `-${4531900000 + next++}`;
    await bot.script("sendMessage", [{ kind: "migrated", migrateTo: Number(nowhere) }], old.chatId);
    const sends = (await bot.sends(old.chatId)).length;
    const failed = vi.spyOn(console, "error").mockImplementation(() => {});
    const [refused] = await say(old, groupText(newUpdateId(), basicGroup(old.chatId), CY, "/status"));
    expect(refused!.answered).toBe(400);
    await vi.waitFor(async () => expect(await sql(old.stub, "SELECT error FROM outbox WHERE failed_at IS NOT NULL")).toHaveLength(1));
    expect(failed.mock.calls.map((c) => String(c[0]))).toEqual([
      `chat ${old.chatId}: the move to ${nowhere} a send was answered with was refused: ` +
        `"${nowhere}" is not a supergroup's chat id such as -1001234567890; a group moves only to a supergroup.`,
      `outbox: a message of chat ${old.chatId} was given up: Telegram sendMessage failed (400): Bad Request: group chat was upgraded to a supergroup chat, ` +
        "and the chat did not move there",
    ]);
    failed.mockRestore();
    // Nothing waits to be sent, and Telegram was asked once.
    expect(await sql(old.stub, "SELECT id FROM outbox WHERE failed_at IS NULL")).toEqual([]);
    expect((await bot.sends(old.chatId)).length).toBe(sends + 1);
    // The alarm waits for the job's next run, not for the message.
    const [job] = await jobsOf(old);
    expect(await alarmOf(old.stub)).toBe(Date.parse(job!.nextRunAt!));
  });
});

/** Leaves step 1 of a move done and nothing after it: the note `moving_to` written, as a crash right then would. */
function crashAfterNote(old: TelegramChat, to: string): Promise<void> {
  return old.stub.testNoteMove(to);
}

describe("a crash between the steps", () => {
  it("after the new object took the state and before the old one forgot it: the next call finishes the move, nothing twice", async () => {
    const { old, fresh, jobId } = await groupAndSupergroup();
    const before = await shown(old);
    // Steps 1 and 2: the note, and the supergroup's object takes every chunk; step 3 never runs.
    const chunks = await runInDurableObject(old.stub, (_instance, state) => new MoveStore({ sql: state.storage.sql }).export());
    await crashAfterNote(old, fresh.chatId);
    for (const chunk of chunks as MoveChunk[]) await must(fresh.stub.acceptMove(fresh.chatId, old.chatId, chunk));
    expect((await sql(old.stub, "SELECT id FROM jobs")).length).toBe(1);
    // The next call to the old id finishes the move (the supergroup says it has it) and is answered there.
    vi.spyOn(console, "log").mockImplementation(() => {});
    const listed = await must(old.stub.listJobs(old.chatId, {}));
    vi.restoreAllMocks();
    expect([listed.chatId, listed.jobs.map((j) => j.id)]).toEqual([fresh.chatId, [jobId]]);
    expect(await shown(fresh)).toEqual({ ...before, settings: { ...before.settings, chatId: fresh.chatId } });
    expect(await leftIn(old)).toEqual({
      settings: [
        { key: "chat_id", value: old.chatId },
        { key: "moved_to", value: fresh.chatId },
      ],
    });
  });

  it("after the note and before anything was sent: the alarm finishes the move", async () => {
    const { old, fresh, jobId } = await groupAndSupergroup();
    const before = await shown(old);
    await crashAfterNote(old, fresh.chatId);
    vi.spyOn(console, "log").mockImplementation(() => {});
    expect(await runDurableObjectAlarm(old.stub)).toBe(true);
    vi.restoreAllMocks();
    expect((await jobsOf(fresh)).map((j) => j.id)).toEqual([jobId]);
    expect(await shown(fresh)).toEqual({ ...before, settings: { ...before.settings, chatId: fresh.chatId } });
    expect(await leftIn(old)).toEqual({
      settings: [
        { key: "chat_id", value: old.chatId },
        { key: "moved_to", value: fresh.chatId },
      ],
    });
  });

  it("takes a chunk that comes again after the last one changed nothing", async () => {
    const { old, fresh } = await groupAndSupergroup();
    const chunks = (await runInDurableObject(old.stub, (_instance, state) => new MoveStore({ sql: state.storage.sql }).export())) as MoveChunk[];
    for (const chunk of chunks) await must(fresh.stub.acceptMove(fresh.chatId, old.chatId, chunk));
    const once = await shown(fresh);
    for (const chunk of chunks) expect(await fresh.stub.acceptMove(fresh.chatId, old.chatId, chunk)).toEqual({ ok: true, value: { done: true } });
    expect(await shown(fresh)).toEqual(once);
  });
});

describe("the old id's callers", () => {
  it("hands a prompt still naming the old chat to the supergroup's object", async () => {
    const { old, fresh } = await groupAndSupergroup();
    vi.spyOn(console, "log").mockImplementation(() => {});
    await postUpdate(hook(old.chatId), migrateTo(newUpdateId(), old.chatId, fresh.chatId, CY));
    vi.restoreAllMocks();
    const message = {
      v: 1,
      key: "m:late-1",
      chatId: old.chatId,
      timeZone: "UTC",
      source: "user",
      text: "hello",
      body: "hello",
      firedAt: new Date().toISOString(),
    };
    const offer = await must<{ result: string; token?: string }>(old.stub.gateOffer(message));
    expect(offer.result).toBe("run");
    await must(old.stub.deliver("m:late-1", "Hello from the supergroup."));
    const [reply] = await delivered(bot, fresh, 1);
    expectReply(reply, fresh.chatId, renderTelegramHtml("Hello from the supergroup."));
  });
});
