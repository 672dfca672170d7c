/**
 * What a Mini App session may do (docs/api.md; issue 18): its own chat's routes (jobs, runs, settings, memory,
 * messages) and the preview, as a cookie (same-origin JSON requests only, as the page's) or as a bearer header;
 * any other chat, the directory, imports, the rebuild, the OpenAPI document and erasing its chat are 403 with a
 * sentence; a session that is tampered, another bot's or expired is 401, one whose user left the allow-list 403.
 * The admin token keeps full access. And /jobs in Telegram carries an Open scheduler `web_app` button exactly
 * when PUBLIC_URL is https. Users 5180101 (own) and 5180102; chats 5180110 up for /jobs.
 */
import { describe, expect, it, vi } from "vitest";
import { APP_SESSION_TEXT } from "../../src/http/app-access";
import { newAppSession } from "../../src/http/app-session";
import { zoneChangeSchema } from "../../src/schemas/chats";
import { jobListSchema, jobReply } from "../../src/schemas/jobs";
import { previewReplySchema } from "../../src/schemas/preview";
import { signInitData } from "../stub/init-data";
import { type Answer, brief, call, chatIds, deployed, envWith, postJson, sendWith, setInstanceVars, transcript } from "./helpers";
import { delivered, postUpdate, TestBot, telegramChat, textUpdate } from "./telegram-helpers";

vi.setConfig({ testTimeout: 20_000 });
const BOT = "7000005182:AAE_mini-app-scope-tests_abcdefghi";
const ADMIN = "admin-token-of-the-scope-tests";
const SITE = "http://localhost";
const OWN = "5180101";
const OTHER = "5180102";
const vars = { TELEGRAM_BOT_TOKEN: BOT, TELEGRAM_WEBHOOK_SECRET: "hook-secret", ALLOWED_USER_IDS: `${OWN},${OTHER}` };
const withBot = deployed({ ADMIN_TOKEN: ADMIN, ...vars });

const error = (status: number, code: string, message: string): Answer => ({ status, body: { error: { code, message } } });
const otherChat = (id: string) => error(403, "forbidden", `A Mini App session may use only its own chat (${OWN}); this request is for chat "${id}".`);
const adminOnly = (what: string) =>
  error(403, "forbidden", `A Mini App session may use only /admin/chats/${OWN}/…, POST /admin/preview and GET /admin/zones; ${what} needs ADMIN_TOKEN.`);

async function session(testEnv: Env = withBot): Promise<{ cookie: string; bearer: string }> {
  const res = await call("/app/session", postJson({ initData: await signInitData(BOT, Number(OWN)) }, { Origin: SITE }), testEnv);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { session: string };
  return { cookie: (res.headers.get("Set-Cookie") ?? "").split(";")[0]!, bearer: body.session };
}

/** A request as the Mini App sends it: JSON, from this site, with the cookie (or with `headers` instead). */
const send = (method: string, path: string, headers: Record<string, string>, body?: unknown, testEnv: Env = withBot) =>
  sendWith(method, path, headers, body, testEnv);
const asPage = (cookie: string) => ({ Cookie: cookie, Origin: SITE });
const asAdmin = { Authorization: `Bearer ${ADMIN}` };
const JOB = { name: "Stretch", kind: "prompt", text: "Time to stretch.", cron: "0 10 * * *" };

describe("a Mini App session on its own chat", () => {
  it("reads and changes the chat's jobs, settings, memory and transcript, and previews, by cookie and by bearer", async () => {
    const { cookie, bearer } = await session();
    const page = asPage(cookie);
    const token = { Authorization: `Bearer ${bearer}` };
    const created = await send("POST", `/admin/chats/${OWN}/jobs`, page, JOB).as(jobReply());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.job.id;
    expect((await send("GET", `/admin/chats/${OWN}/jobs`, page).as(jobListSchema())).body.jobs.map((j) => j.id)).toEqual([id]);
    expect((await send("GET", `/admin/chats/${OWN}/jobs`, token).as(jobListSchema())).body.jobs.map((j) => j.id)).toEqual([id]);
    expect((await send("PATCH", `/admin/chats/${OWN}/jobs/${id}`, token, { name: "Stretch more" }).as(jobReply())).body.job.name).toBe("Stretch more");
    expect((await send("POST", `/admin/chats/${OWN}/jobs/${id}/pause`, page).as(jobReply())).body.job.enabled).toBe(false);
    expect(await send("GET", `/admin/chats/${OWN}/jobs/${id}/runs`, page)).toEqual({ status: 200, body: { runs: [] } });
    expect((await send("PUT", `/admin/chats/${OWN}/settings`, page, { timeZone: "Europe/Berlin" }).as(zoneChangeSchema())).body.timeZone).toBe("Europe/Berlin");
    expect(await send("GET", `/admin/chats/${OWN}/settings`, token)).toEqual({
      status: 200,
      body: { chatId: OWN, timeZone: "Europe/Berlin", isDefault: false },
    });
    expect(await send("GET", `/admin/chats/${OWN}/memory`, page)).toEqual({ status: 200, body: { records: [] } });
    expect(await send("GET", `/admin/chats/${OWN}/messages`, page)).toEqual({ status: 200, body: { chatId: OWN, messages: [] } });
    expect((await send("POST", "/admin/preview", page, { cron: "0 8 * * *", timeZone: "UTC" }).as(previewReplySchema())).body.description).toBe(
      "every day at 08:00 (UTC)",
    );
    expect((await send("POST", "/admin/preview", token, { cron: "0 8 * * *", timeZone: "UTC" })).status).toBe(200);
    const access = await send("GET", "/admin/session", page);
    expect(access).toEqual({ status: 200, body: { via: "app", expiresAt: expect.stringMatching(/Z$/), chatId: OWN } });
    expect((await send("DELETE", `/admin/chats/${OWN}/jobs/${id}`, token)).status).toBe(204);
  });

  it("works without ADMIN_TOKEN, deployed and in open dev mode, and stays scoped in both", async () => {
    for (const testEnv of [deployed(vars), envWith({ ...vars, ADMIN_TOKEN: undefined })]) {
      const { cookie } = await session(testEnv);
      expect((await send("GET", `/admin/chats/${OWN}/jobs`, asPage(cookie), undefined, testEnv)).status).toBe(200);
      expect(await send("GET", `/admin/chats/${OTHER}/jobs`, asPage(cookie), undefined, testEnv)).toEqual(otherChat(OTHER));
      expect(await send("GET", "/admin/chats", asPage(cookie), undefined, testEnv)).toEqual(adminOnly("GET /admin/chats"));
    }
  });
});

describe("a Mini App session outside its chat", () => {
  it("is 403 for another chat however its id is written, and changes nothing there", async () => {
    const { cookie, bearer } = await session();
    expect((await send("POST", `/admin/chats/${OTHER}/jobs`, asAdmin, JOB)).status).toBe(201);
    for (const headers of [asPage(cookie), { Authorization: `Bearer ${bearer}` }]) {
      expect(await send("GET", `/admin/chats/${OTHER}/jobs`, headers)).toEqual(otherChat(OTHER));
      expect(await send("POST", `/admin/chats/${OTHER}/jobs`, headers, JOB)).toEqual(otherChat(OTHER));
      expect(await send("PUT", `/admin/chats/${OTHER}/settings`, headers, { timeZone: "Asia/Tokyo" })).toEqual(otherChat(OTHER));
      expect(await send("GET", `/admin/chats/%35%31%38%30%31%30%32/memory`, headers)).toEqual(otherChat(OTHER));
      expect(await send("GET", `/admin/chats/${OWN}%2F..%2F${OTHER}/jobs`, headers)).toEqual(otherChat(`${OWN}/../${OTHER}`));
      expect(await send("DELETE", `/admin/chats/${OTHER}`, headers)).toEqual(otherChat(OTHER));
    }
    const theirs = await send("GET", `/admin/chats/${OTHER}/jobs`, asAdmin).as(jobListSchema());
    expect(theirs.body.jobs.map((j) => j.name)).toEqual(["Stretch"]);
    expect(theirs.body.timeZone).toBe("UTC");
  });

  it("is 403 on every cross-chat route, and on erasing its own chat", async () => {
    const { cookie, bearer } = await session();
    expect((await send("POST", `/admin/chats/${OWN}/jobs`, asAdmin, { ...JOB, name: "Keep me" })).status).toBe(201);
    for (const headers of [asPage(cookie), { Authorization: `Bearer ${bearer}` }]) {
      expect(await send("GET", "/admin/chats", headers)).toEqual(adminOnly("GET /admin/chats"));
      expect(await send("GET", "/admin/jobs?q=Keep", headers)).toEqual(adminOnly("GET /admin/jobs"));
      expect(await send("POST", "/admin/import", headers, { format: "commitments", data: "" })).toEqual(adminOnly("POST /admin/import"));
      expect(await send("POST", "/admin/directory/rebuild", headers, {})).toEqual(adminOnly("POST /admin/directory/rebuild"));
      expect(await send("GET", "/admin/openapi.json", headers)).toEqual(adminOnly("GET /admin/openapi.json"));
      expect(await send("DELETE", `/admin/chats/${OWN}`, headers)).toEqual(error(403, "forbidden", APP_SESSION_TEXT.erase));
    }
    expect((await send("GET", `/admin/chats/${OWN}/jobs`, asAdmin).as(jobListSchema())).body.jobs.map((j) => j.name)).toContain("Keep me");
  });

  it("as a cookie, changes things only in JSON requests from this site; as a bearer header, needs no Origin", async () => {
    const { cookie, bearer } = await session();
    expect(await send("POST", `/admin/chats/${OWN}/jobs`, { Cookie: cookie }, JOB)).toEqual(
      error(403, "forbidden", "A POST with the session cookie must carry an Origin header naming this site (http://localhost)."),
    );
    expect(await send("POST", "/admin/preview", { Cookie: cookie, Origin: "https://evil.example" }, { cron: "0 8 * * *" })).toEqual(
      error(403, "forbidden", 'A POST with the session cookie must come from this site (http://localhost); the Origin header is "https://evil.example".'),
    );
    const form = await call(
      `/admin/chats/${OWN}/jobs`,
      { method: "POST", headers: { ...asPage(cookie), "Content-Type": "text/plain" }, body: JSON.stringify(JOB) },
      withBot,
    );
    expect(await form.json()).toEqual(error(403, "forbidden", 'A POST with the session cookie needs "Content-Type: application/json".').body);
    expect((await send("GET", `/admin/chats/${OWN}/jobs`, { Cookie: cookie })).status).toBe(200);
    expect((await send("POST", "/admin/preview", { Authorization: `Bearer ${bearer}` }, { cron: "0 8 * * *" })).status).toBe(200);
  });

  it("is 401 when tampered, another bot's, expired or without a bot, and 403 once its user left ALLOWED_USER_IDS", async () => {
    const { cookie, bearer } = await session();
    const expired = await newAppSession(BOT, OWN, Math.floor(Date.now() / 1000) - 1);
    const foreign = await newAppSession("7000005183:AAE_not-this-bot_abcdefghijklmn", OWN, Math.floor(Date.now() / 1000) + 3600);
    const refused = error(401, "unauthorized", APP_SESSION_TEXT.invalid);
    for (const value of [`${bearer.slice(0, -2)}AA`, bearer.replace(`app1.${OWN}.`, `app1.${OTHER}.`), expired, foreign]) {
      expect(await send("GET", `/admin/chats/${OWN}/jobs`, { Authorization: `Bearer ${value}` }), value).toEqual(refused);
      expect(await send("GET", `/admin/chats/${OWN}/jobs`, { Cookie: `__Host-cuckoo-app=${value}` }), value).toEqual(refused);
    }
    expect(await send("GET", `/admin/chats/${OWN}/jobs`, asPage(cookie), undefined, deployed({ ADMIN_TOKEN: ADMIN }))).toEqual(refused);
    const without = deployed({ ADMIN_TOKEN: ADMIN, ...vars, ALLOWED_USER_IDS: OTHER });
    expect(await send("GET", `/admin/chats/${OWN}/jobs`, asPage(cookie), undefined, without)).toEqual(
      error(403, "forbidden", `Telegram user ${OWN} may not use this bot; the operator lists the users it serves in ALLOWED_USER_IDS.`),
    );
  });

  it("leaves the admin token its full access, also beside a Mini App cookie", async () => {
    const { cookie } = await session();
    expect((await send("GET", "/admin/chats", { ...asAdmin, Cookie: cookie })).status).toBe(200);
    expect((await send("GET", `/admin/chats/${OTHER}/jobs`, { ...asAdmin, Cookie: cookie })).status).toBe(200);
    expect(await send("GET", "/admin/session", { ...asAdmin, Cookie: cookie })).toEqual({ status: 200, body: { via: "bearer", expiresAt: null } });
  });
});

describe("/jobs in Telegram", () => {
  const bot = new TestBot("mini-app-jobs");
  const newChat = chatIds(5_180_110);

  it("carries an Open scheduler web_app button to PUBLIC_URL/app when PUBLIC_URL is https, and none otherwise", async () => {
    for (const [publicUrl, markup] of [
      ["https://cuckoo.example.workers.dev/", { inline_keyboard: [[{ text: "Open scheduler", web_app: { url: "https://cuckoo.example.workers.dev/app" } }]] }],
      ["http://127.0.0.1:8787", undefined],
      [null, undefined],
    ] as const) {
      const { chatId } = newChat();
      const chat = await telegramChat(bot, chatId);
      if (publicUrl !== null) await setInstanceVars(chat.stub, { PUBLIC_URL: publicUrl });
      expect((await postUpdate(bot.env([chatId]), textUpdate(chatId, "/jobs"))).status).toBe(200);
      const [reply] = await delivered(bot, chat, 1);
      expect(reply!.params.text, String(publicUrl)).toBe("No scheduled jobs.");
      expect(reply!.params.reply_markup, String(publicUrl)).toEqual(markup);
    }
  });

  it("keeps the button with the bot entry, and offers none in transcript mode, where no Telegram opens it", async () => {
    const telegram = newChat();
    const chat = await telegramChat(bot, telegram.chatId);
    await setInstanceVars(chat.stub, { PUBLIC_URL: "https://cuckoo.example.workers.dev" });
    await postUpdate(bot.env([telegram.chatId]), textUpdate(telegram.chatId, "/jobs"));
    const entries = await transcript(chat.stub, telegram.chatId);
    expect(entries.at(-1)).toMatchObject({
      role: "bot",
      source: "command",
      buttons: [[{ text: "Open scheduler", webApp: "https://cuckoo.example.workers.dev/app" }]],
    });

    const plain = newChat();
    await setInstanceVars(plain.stub, { PUBLIC_URL: "https://cuckoo.example.workers.dev" });
    const res = await call(`/admin/chats/${plain.chatId}/messages`, postJson({ text: "/jobs" }, { Origin: SITE }));
    expect(res.status).toBe(202);
    const last = (await transcript(plain.stub, plain.chatId)).at(-1)!;
    expect(brief([last])).toEqual([{ role: "bot", source: "command", text: "No scheduled jobs." }]);
    expect(last.buttons).toBeUndefined();
  });
});
