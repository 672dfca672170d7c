/**
 * The Mini App's initData check (src/telegram/init-data.ts; issue 18) against vectors signed here with Node's own
 * crypto, following Telegram's documentation step by step: the secret is HMAC-SHA256 of the bot token keyed
 * with "WebAppData", the hash the hex HMAC-SHA256 of the data-check-string (every field but `hash`, sorted,
 * `key=value` lines). Valid; one field changed; another bot's hash; too old; ahead of the clock; no hash;
 * duplicate and malformed fields; no user.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkInitData, dataCheckString, INIT_DATA_TEXT, initDataFields } from "../../src/telegram/init-data";

const TOKEN = "7000000111:AAE_unit-tests_of_initData_0123456789";
const OTHER = "7000000222:AAE_another_bot_entirely_9876543210";
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
const NOW_S = NOW / 1000;
const USER = JSON.stringify({ id: 111, first_name: "Ada", last_name: "L", username: "ada", language_code: "en", allows_write_to_pm: true });

/** Telegram's signature of these fields, computed independently of the code under test. */
function telegramHash(fields: [string, string][], token: string): string {
  const secret = createHmac("sha256", "WebAppData").update(token).digest();
  const check = fields
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("\n");
  return createHmac("sha256", secret).update(check).digest("hex");
}

/** The query string a Mini App receives: fields percent-encoded as Telegram encodes them, `hash` last. */
function initData(fields: [string, string][], hash: string | null): string {
  const all: [string, string][] = hash === null ? fields : [...fields, ["hash", hash]];
  return all.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");
}

function signed(
  overrides: Partial<Record<"auth_date" | "user" | "query_id" | "chat" | "chat_type" | "chat_instance" | "start_param", string>> = {},
  token = TOKEN,
): string {
  const fields: [string, string][] = Object.entries({ query_id: "AAHdF6IQAAAAAN0XohDhrOrc", user: USER, auth_date: String(NOW_S - 60), ...overrides });
  return initData(fields, telegramHash(fields, token));
}

describe("checkInitData", () => {
  it("names the group a direct link opened it for (start_param), or the attachment menu's group chat, and nothing else", async () => {
    // Opened from t.me/<bot>/<app>?startapp=-1001234567890 in a supergroup: chat_type, chat_instance and start_param.
    const link = { chat_type: "supergroup", chat_instance: "-8428209589180549439", start_param: "-1001234567890" };
    expect(await checkInitData(signed(link), TOKEN, NOW)).toEqual({ ok: true, value: { userId: "111", authDate: NOW_S - 60, groupId: "-1001234567890" } });
    const menu = { chat: JSON.stringify({ id: -4012345678, type: "group", title: "Family" }) };
    expect(await checkInitData(signed(menu), TOKEN, NOW)).toEqual({ ok: true, value: { userId: "111", authDate: NOW_S - 60, groupId: "-4012345678" } });
    // A start_param that is no group id, a channel, or a private chat: the user's own chat.
    for (const other of [
      { start_param: "1234567" },
      { start_param: "jobs" },
      { chat: JSON.stringify({ id: -1009, type: "channel", title: "News" }) },
      { chat_type: "sender", chat_instance: "42" },
    ]) {
      expect(await checkInitData(signed(other), TOKEN, NOW), JSON.stringify(other)).toEqual({
        ok: true,
        value: { userId: "111", authDate: NOW_S - 60, groupId: null },
      });
    }
  });

  it("accepts initData signed for this bot, naming its user and auth_date", async () => {
    expect(await checkInitData(signed(), TOKEN, NOW)).toEqual({ ok: true, value: { userId: "111", authDate: NOW_S - 60, groupId: null } });
  });

  it("accepts any field Telegram adds (signature, chat_instance), and a value with + and %20 alike", async () => {
    const fields: [string, string][] = [
      ["auth_date", String(NOW_S)],
      ["chat_instance", "-8128837219476364826"],
      ["chat_type", "sender"],
      ["signature", "abc_DEF-123"],
      ["user", JSON.stringify({ id: 111, first_name: "Ada Lovelace" })],
    ];
    const data = initData(fields, telegramHash(fields, TOKEN));
    expect(await checkInitData(data, TOKEN, NOW)).toEqual({ ok: true, value: { userId: "111", authDate: NOW_S, groupId: null } });
    expect(await checkInitData(data.replaceAll("%20", "+"), TOKEN, NOW)).toEqual({ ok: true, value: { userId: "111", authDate: NOW_S, groupId: null } });
  });

  it("refuses initData with one field changed after signing", async () => {
    const good = signed();
    const otherUser = good.replace(encodeURIComponent('"id":111'), encodeURIComponent('"id":112'));
    expect(otherUser).not.toBe(good);
    expect(await checkInitData(otherUser, TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.badHash });
    const later = good.replace(`auth_date=${NOW_S - 60}`, `auth_date=${NOW_S - 30}`);
    expect(await checkInitData(later, TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.badHash });
    const extra = `${good}&start_param=x`;
    expect(await checkInitData(extra, TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.badHash });
  });

  it("refuses a hash made with another bot's token, and a hash that is not 64 hex digits", async () => {
    expect(await checkInitData(signed({}, OTHER), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.badHash });
    const good = signed();
    const hash = /hash=([0-9a-f]{64})/.exec(good)![1]!;
    expect(await checkInitData(good.replace(hash, hash.slice(0, 63)), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.badHash });
    expect(await checkInitData(good.replace(hash, hash.toUpperCase()), TOKEN, NOW)).toEqual({
      ok: true,
      value: { userId: "111", authDate: NOW_S - 60, groupId: null },
    });
  });

  it("refuses an auth_date more than 24 hours old, or more than 5 minutes ahead of the clock", async () => {
    const day = 24 * 60 * 60;
    expect(await checkInitData(signed({ auth_date: String(NOW_S - day) }), TOKEN, NOW)).toEqual({
      ok: true,
      value: { userId: "111", authDate: NOW_S - day, groupId: null },
    });
    expect(await checkInitData(signed({ auth_date: String(NOW_S - day - 1) }), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.old });
    expect(await checkInitData(signed({ auth_date: String(NOW_S + 300) }), TOKEN, NOW)).toEqual({
      ok: true,
      value: { userId: "111", authDate: NOW_S + 300, groupId: null },
    });
    expect(await checkInitData(signed({ auth_date: String(NOW_S + 301) }), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.ahead });
    expect(await checkInitData(signed({ auth_date: "yesterday" }), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.noDate });
  });

  it("refuses initData without a hash, or with an empty one", async () => {
    const fields: [string, string][] = [
      ["auth_date", String(NOW_S)],
      ["user", USER],
    ];
    expect(await checkInitData(initData(fields, null), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.noHash });
    expect(await checkInitData(initData(fields, ""), TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.noHash });
  });

  it("refuses a field given twice (even with the signature of one of its readings), and pieces that are not key=value", async () => {
    const fields: [string, string][] = [
      ["auth_date", String(NOW_S)],
      ["user", USER],
    ];
    const hash = telegramHash(fields, TOKEN);
    const twice = `${initData(fields, hash)}&user=${encodeURIComponent(JSON.stringify({ id: 112, first_name: "Eve" }))}`;
    expect(await checkInitData(twice, TOKEN, NOW)).toEqual({ ok: false, error: INIT_DATA_TEXT.malformed });
    for (const broken of [
      `${initData(fields, hash)}&`,
      `=x&${initData(fields, hash)}`,
      `flag&${initData(fields, hash)}`,
      `${initData(fields, hash)}&bad=%E0%A4%A`,
    ]) {
      expect(await checkInitData(broken, TOKEN, NOW), broken).toEqual({ ok: false, error: INIT_DATA_TEXT.malformed });
    }
  });

  it("refuses signed initData that names no user with a numeric id", async () => {
    for (const user of [null, "not json", JSON.stringify({ first_name: "Ada" }), JSON.stringify({ id: "111" }), JSON.stringify({ id: -5 })]) {
      const fields: [string, string][] = [["auth_date", String(NOW_S)], ...(user === null ? [] : [["user", user] as [string, string]])];
      expect(await checkInitData(initData(fields, telegramHash(fields, TOKEN)), TOKEN, NOW), String(user)).toEqual({ ok: false, error: INIT_DATA_TEXT.noUser });
    }
  });
});

describe("the data-check-string", () => {
  it("is every field but hash, decoded, sorted by key, one key=value line each", () => {
    const fields = initDataFields("user=%7B%22id%22%3A1%7D&hash=ff&auth_date=5&query_id=Q");
    expect(fields).not.toBeNull();
    expect(dataCheckString(fields!)).toBe('auth_date=5\nquery_id=Q\nuser={"id":1}');
  });
});
