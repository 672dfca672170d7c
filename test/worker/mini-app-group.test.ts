/**
 * The Mini App opened from a group (issue 26, docs/api.md): the group's direct link (`t.me/<bot>/<app>?startapp=
 * <group id>`) hands the Mini App `chat_type`, `chat_instance` and `start_param`; the user controls
 * `start_param`, so the sign-in asks Telegram (getChatMember, through the group's object, which remembers it 10
 * minutes) whether they are in the group: its admins and listed users get a session that changes its jobs, other
 * members a read-only one (enforced by the server: anything but a read is 403), anyone else none. A change is
 * checked against the group's admins again, so a user no longer admin loses it within 10 minutes. A group's session
 * ends 10 minutes after Telegram's answer that its user is in the group and is renewed on a request (a read too)
 * once that answer is 5 minutes old, Telegram asked again: a member removed is refused at their next request.
 * Supergroups -1005300000000 up; users 5300001 (admin), 5300002 (member), 5300003 (listed), 5300004 (gone).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ADMINS_ONLY, ROLE_KEPT_MS } from "../../src/chat/members";
import { APP_SESSION_TEXT, groupNotServedText } from "../../src/http/app-access";
import { leftGroupText, notMemberText } from "../../src/http/group-session";
import { signInitData } from "../stub/init-data";
import { call, chatStub, deployed, lines, objectExists, postJson, quietConsole } from "./helpers";
import { TestBot, telegramChat } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const bot = new TestBot("miniappgroup");
const ADMIN_TOKEN = "admin-token-of-the-group-mini-app-tests";
const [ADMIN, MEMBER, LISTED, GONE] = [5_300_001, 5_300_002, 5_300_003, 5_300_004];
const SITE = "http://localhost";
let next = 0;
const newGroup = () => `-100${5300000000 + next++}`;

const error = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });
async function answer(res: Response) {
  const text = await res.text();
  return { status: res.status, body: text === "" ? null : JSON.parse(text) };
}

/** The Worker's env (deployed), serving `chats`; the group's object gets the same vars. */
const workerEnv = (chats: string[]) => deployed({ ADMIN_TOKEN, ...bot.vars([String(LISTED)], chats) });
async function group(): Promise<string> {
  const chatId = newGroup();
  await telegramChat(bot, chatId, { allowed: [String(LISTED)], chats: [chatId] });
  return chatId;
}

/** Signs in as `userId` with the group's direct link, after getChatMember is scripted to say `status`. */
async function signIn(chatId: string, userId: number, status: "creator" | "administrator" | "member" | "left" | "kicked" | null, served = [chatId]) {
  if (status !== null) await bot.script("getChatMember", [{ kind: "member", status }], chatId);
  const initData = await signInitData(bot.token, userId, { startParam: chatId });
  return call("/app/session", postJson({ initData }, { Origin: SITE, "CF-Connecting-IP": "192.0.2.26" }), workerEnv(served));
}

/** A request with the session as a bearer header (as the page sends it where the web view keeps no cookie). */
const as = (session: string, chatId: string, method: string, path: string, body?: unknown) =>
  call(
    path,
    {
      method,
      headers: { Authorization: `Bearer ${session}`, "Content-Type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    },
    workerEnv([chatId]),
  );

const JOB = { name: "Standup", kind: "prompt", text: "Standup time", cron: "0 9 * * 1-5" };
const memberCalls = async (chatId: string) => (await bot.calls({ chatId, method: "getChatMember" })).map((c) => c.params);

describe("signing in from a group", () => {
  it("gives an admin a session of the group that changes its jobs, asking Telegram once", async () => {
    const chatId = await group();
    const res = await signIn(chatId, ADMIN, "administrator");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { chatId: string; expiresAt: string; session: string };
    expect(Object.keys(body).sort()).toEqual(["chatId", "expiresAt", "session"]);
    expect(body.chatId).toBe(chatId);
    expect(body.session).toMatch(new RegExp(`^app2\\.${chatId}\\.${ADMIN}\\.change\\.\\d+\\.`));
    expect(await answer(await as(body.session, chatId, "GET", "/admin/session"))).toEqual({
      status: 200,
      body: { via: "app", chatId, expiresAt: body.expiresAt },
    });
    const created = await answer(await as(body.session, chatId, "POST", `/admin/chats/${chatId}/jobs`, JOB));
    expect(created.status).toBe(201);
    expect(created.body.job).toMatchObject({ chatId, name: "Standup" });
    // Sign-in and change within 10 minutes: Telegram was asked once.
    expect(await memberCalls(chatId)).toEqual([{ chat_id: chatId, user_id: ADMIN }]);
    expect(await answer(await as(body.session, chatId, "GET", "/admin/chats/5300001/jobs"))).toEqual(
      error(403, "forbidden", `A Mini App session may use only its own chat (${chatId}); this request is for chat "5300001".`),
    );
  });

  it("gives a member a read-only session: reads pass, every change is 403 with the sentence, checked by the server", async () => {
    const chatId = await group();
    const res = await signIn(chatId, MEMBER, "member");
    const body = (await res.json()) as { chatId: string; session: string; readOnly?: boolean; expiresAt: string };
    expect(body).toMatchObject({ chatId, readOnly: true });
    expect(body.session).toMatch(new RegExp(`^app2\\.${chatId}\\.${MEMBER}\\.read\\.`));
    const s = body.session;
    expect(await answer(await as(s, chatId, "GET", "/admin/session"))).toEqual({
      status: 200,
      body: { via: "app", chatId, expiresAt: body.expiresAt, readOnly: true },
    });
    expect((await as(s, chatId, "GET", `/admin/chats/${chatId}/jobs`)).status).toBe(200);
    expect((await as(s, chatId, "GET", `/admin/chats/${chatId}/settings`)).status).toBe(200);
    expect(await answer(await as(s, chatId, "GET", `/admin/chats/${chatId}/quiet`))).toEqual({ status: 200, body: { quiet: null } });
    expect((await as(s, chatId, "POST", "/admin/preview", { cron: "0 9 * * 1-5" })).status).toBe(200);
    const refused = error(403, "forbidden", ADMINS_ONLY);
    for (const [method, path, payload] of [
      ["POST", `/admin/chats/${chatId}/jobs`, JOB],
      ["PATCH", `/admin/chats/${chatId}/jobs/k7m2q`, { name: "Other" }],
      ["DELETE", `/admin/chats/${chatId}/jobs/k7m2q`, undefined],
      ["POST", `/admin/chats/${chatId}/jobs/k7m2q/run`, undefined],
      ["PUT", `/admin/chats/${chatId}/settings`, { timeZone: "Asia/Tokyo" }],
      ["POST", `/admin/chats/${chatId}/jobs/k7m2q/skip`, undefined],
      ["PUT", `/admin/chats/${chatId}/quiet`, { quiet: { from: "22:00", to: "07:00" } }],
      ["POST", `/admin/chats/${chatId}/memory`, { title: "t", body: "b" }],
    ] as const) {
      expect(await answer(await as(s, chatId, method, path, payload)), `${method} ${path}`).toEqual(refused);
    }
    // Refused by the session itself: Telegram was not asked again.
    expect(await memberCalls(chatId)).toEqual([{ chat_id: chatId, user_id: MEMBER }]);
  });

  it("gives a listed user who is a member a session that changes, and the group's creator too", async () => {
    const chatId = await group();
    expect(((await (await signIn(chatId, LISTED, "member")).json()) as { readOnly?: boolean }).readOnly).toBeUndefined();
    expect(((await (await signIn(chatId, ADMIN, "creator")).json()) as { readOnly?: boolean }).readOnly).toBeUndefined();
  });

  it("refuses a user who is not in the group, whatever the link says", async () => {
    const chatId = await group();
    for (const status of ["left", "kicked"] as const) {
      expect(await answer(await signIn(chatId, GONE, status))).toEqual(error(403, "forbidden", notMemberText(String(GONE), chatId)));
    }
  });

  it("refuses a group the bot does not serve without asking Telegram or creating its object", async () => {
    const chatId = newGroup();
    expect(await answer(await signIn(chatId, ADMIN, null, []))).toEqual(error(403, "forbidden", groupNotServedText(chatId)));
    expect(await bot.calls({ chatId })).toEqual([]);
    expect(await objectExists(chatId)).toBe(false);
  });

  it("takes the right to change away from a user no longer admin, within 10 minutes", async () => {
    const chatId = await group();
    const { session } = (await (await signIn(chatId, ADMIN, "administrator")).json()) as { session: string };
    expect((await as(session, chatId, "POST", `/admin/chats/${chatId}/jobs`, JOB)).status).toBe(201);
    await chatStub(chatId).testAdvanceClock(ROLE_KEPT_MS);
    await bot.script("getChatMember", [{ kind: "member", status: "member" }], chatId);
    expect(await answer(await as(session, chatId, "POST", `/admin/chats/${chatId}/jobs`, JOB))).toEqual(error(403, "forbidden", ADMINS_ONLY));
    // A read within 5 minutes of the sign-in rests on the sign-in's answer.
    expect((await as(session, chatId, "GET", `/admin/chats/${chatId}/jobs`)).status).toBe(200);
    expect(await memberCalls(chatId)).toHaveLength(2);
  });
});

describe("a group's session and the member's place in the group", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Moves the Worker's clock and the group object's by `ms`. */
  async function later(chatId: string, ms: number): Promise<void> {
    vi.setSystemTime(Date.now() + ms);
    await chatStub(chatId).testAdvanceClock(ms);
  }

  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

  it("ends 10 minutes after Telegram's answer, is renewed on a read while the member stays, and refuses a removed member", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const chatId = await group();
    const t0 = Math.floor(Date.now() / 1000);
    const first = (await (await signIn(chatId, MEMBER, "member")).json()) as { session: string; expiresAt: string; readOnly?: boolean };
    expect([first.expiresAt, first.readOnly]).toEqual([iso(t0 + 600), true]);
    // Within 5 minutes of the answer: nothing asked, nothing renewed.
    await later(chatId, 4 * 60_000);
    const fresh = await as(first.session, chatId, "GET", `/admin/chats/${chatId}/jobs`);
    expect([fresh.status, fresh.headers.get("X-Cuckoo-Session"), fresh.headers.get("Set-Cookie")]).toEqual([200, null, null]);
    expect(await memberCalls(chatId)).toHaveLength(1);

    // Past 5 minutes a read asks Telegram again; the member stays, so the session is renewed: a new cookie and the
    // value for a bearer client, ending 10 minutes after the new answer.
    await later(chatId, 2 * 60_000);
    const read = await as(first.session, chatId, "GET", `/admin/chats/${chatId}/jobs`);
    expect(read.status).toBe(200);
    const renewed = read.headers.get("X-Cuckoo-Session")!;
    expect(renewed).toMatch(new RegExp(`^app2\\.${chatId}\\.${MEMBER}\\.read\\.${t0 + 12 * 3600}\\.${t0 + 360 + 600}\\.`));
    expect(read.headers.get("Set-Cookie")).toBe(`__Host-cuckoo-app=${renewed}; Path=/; Max-Age=600; HttpOnly; Secure; SameSite=None; Partitioned`);
    expect(await memberCalls(chatId)).toHaveLength(2);
    expect(await answer(await as(renewed, chatId, "GET", "/admin/session"))).toEqual({
      status: 200,
      body: { via: "app", chatId, expiresAt: iso(t0 + 360 + 600), readOnly: true },
    });

    // Removed from the group: the first session has ended (401), the renewed one is refused at its next request
    // once Telegram is asked again, and a new sign-in is refused.
    await bot.script("getChatMember", [{ kind: "member", status: "left" }], chatId);
    await later(chatId, 6 * 60_000);
    expect(await answer(await as(first.session, chatId, "GET", `/admin/chats/${chatId}/jobs`))).toEqual(error(401, "unauthorized", APP_SESSION_TEXT.invalid));
    expect(await answer(await as(renewed, chatId, "GET", `/admin/chats/${chatId}/jobs`))).toEqual(
      error(403, "forbidden", leftGroupText(String(MEMBER), chatId)),
    );
    expect(await answer(await signIn(chatId, MEMBER, null))).toEqual(error(403, "forbidden", notMemberText(String(MEMBER), chatId)));
    expect(await memberCalls(chatId)).toHaveLength(3);
  });

  it("stands, unrenewed, until its own end while Telegram cannot be asked", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const chatId = await group();
    const { session } = (await (await signIn(chatId, MEMBER, "member")).json()) as { session: string };
    await bot.script("getChatMember", [{ kind: "500" }, { kind: "500" }], chatId);
    const logged = quietConsole("error");
    await later(chatId, 6 * 60_000);
    const read = await as(session, chatId, "GET", `/admin/chats/${chatId}/jobs`);
    expect([read.status, read.headers.get("X-Cuckoo-Session")]).toEqual([200, null]);
    await later(chatId, 4 * 60_000);
    expect((await as(session, chatId, "GET", `/admin/chats/${chatId}/jobs`)).status).toBe(401);
    expect(await memberCalls(chatId)).toHaveLength(2);
    expect(lines(logged)).toEqual([`chat ${chatId}: getChatMember for ${MEMBER} failed Telegram getChatMember failed (500): Internal Server Error`]);
  });

  it("keeps a private chat's session for its 12 hours, with nothing asked of Telegram", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = Math.floor(Date.now() / 1000);
    const initData = await signInitData(bot.token, LISTED);
    const res = await call("/app/session", postJson({ initData }, { Origin: SITE, "CF-Connecting-IP": "192.0.2.26" }), workerEnv([]));
    const { session, expiresAt } = (await res.json()) as { session: string; expiresAt: string };
    expect(expiresAt).toBe(iso(t0 + 12 * 3600));
    vi.setSystemTime(Date.now() + 11 * 3600_000);
    const read = await as(session, String(LISTED), "GET", `/admin/chats/${LISTED}/jobs`);
    expect([read.status, read.headers.get("X-Cuckoo-Session")]).toEqual([200, null]);
    expect(await bot.calls({ chatId: String(LISTED), method: "getChatMember" })).toEqual([]);
  });
});
