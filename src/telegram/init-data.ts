/**
 * @module Telegram's Mini App `initData`, checked as Telegram documents it ("Validating data received via the
 * Mini App", core.telegram.org/bots/webapps): the data-check-string is every received field but `hash`, sorted
 * by key, `key=value` lines joined by "\n" (values decoded); the secret is HMAC-SHA256 of the bot token keyed
 * with "WebAppData"; `hash` must be the hex HMAC-SHA256 of the data-check-string with that secret, compared in
 * constant time (`crypto.subtle.verify`). Then `auth_date` must be at most 24 hours old (and not ahead of our
 * clock by more than a few minutes), and the signed `user` must have an id. Pure WebCrypto, no Workers APIs.
 * Opened from a group (docs/api.md), the data names the group: its `chat` (the attachment menu) or the
 * `start_param` of the direct link (`t.me/<bot>/<app>?startapp=<group id>`). The user controls `start_param`,
 * so the group is only a request: whether they are in it is Telegram's to say (getChatMember), not this data's.
 */
import * as z from "zod";
import { lazy } from "../lazy";
import { fail, ok, type Parsed } from "../result";

/** How old `auth_date` may be: Telegram signs a fresh `initData` each time the Mini App opens. */
export const INIT_DATA_MAX_AGE_SECONDS = 24 * 60 * 60;
/** How far ahead of our clock `auth_date` may be: clocks differ a little; a date further ahead is not Telegram's. */
const INIT_DATA_MAX_AHEAD_SECONDS = 5 * 60;

/**
 * What a checked `initData` says: the Telegram user (whose private chat with the bot has the same id), when it
 * was signed, and the group it asks for (null: the user's own chat).
 */
type MiniAppUser = { userId: string; authDate: number; groupId: string | null };

/** A group's or supergroup's chat id, as `startapp` carries it. */
const GROUP_ID = /^-[1-9]\d{0,15}$/;

const AGAIN = "open the scheduler again from the bot in Telegram";
export const INIT_DATA_TEXT = {
  malformed: `The initData is not Telegram's: it must be key=value fields joined by &, each key once; ${AGAIN}.`,
  noHash: `The initData carries no hash, so nothing shows that Telegram signed it; ${AGAIN}.`,
  badHash: `The initData's hash does not match this bot's signature; ${AGAIN}.`,
  noDate: `The initData has no auth_date in Unix seconds; ${AGAIN}.`,
  old: `The initData is more than 24 hours old; ${AGAIN}.`,
  ahead: `The initData's auth_date is ahead of this server's clock; ${AGAIN}.`,
  noUser: `The initData names no Telegram user; open the scheduler from the bot's menu button or its Open scheduler button.`,
} as const;

const encoder = new TextEncoder();

/** The signed `user` field: a JSON object whose `id` is a positive whole number (other fields are Telegram's). */
const userSchema = lazy(() => z.looseObject({ id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) }));

/** `+` as a space, then percent-decoding (how Telegram's own script reads the fields); null when it is broken. */
function decode(part: string): string | null {
  try {
    return decodeURIComponent(part.replaceAll("+", "%20"));
  } catch {
    return null;
  }
}

/** The fields of a query string, or null when a piece has no `=`, does not decode, or a key comes twice. */
export function initDataFields(initData: string): Map<string, string> | null {
  const fields = new Map<string, string>();
  for (const piece of initData.split("&")) {
    const at = piece.indexOf("=");
    if (at <= 0) return null;
    const key = decode(piece.slice(0, at));
    const value = decode(piece.slice(at + 1));
    if (key === null || value === null || fields.has(key)) return null;
    fields.set(key, value);
  }
  return fields;
}

/** The data-check-string: every field but `hash`, sorted by key, `key=value` joined by line feeds. */
export function dataCheckString(fields: ReadonlyMap<string, string>): string {
  return [...fields]
    .filter(([key]) => key !== "hash")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("\n");
}

async function hmacKey(secret: BufferSource, usages: ("sign" | "verify")[]): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, usages);
}

/** Telegram's secret for a bot: HMAC-SHA256 of the bot token, keyed with "WebAppData", as a verifying key. */
async function webAppKey(botToken: string): Promise<CryptoKey> {
  const secret = await crypto.subtle.sign("HMAC", await hmacKey(encoder.encode("WebAppData"), ["sign"]), encoder.encode(botToken));
  return hmacKey(secret, ["verify"]);
}

/** 32 bytes from 64 hex digits, or null. */
function hexBytes(hex: string): Uint8Array | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  return Uint8Array.from({ length: 32 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

/**
 * Checks `initData` for `botToken` at `nowMs`: the Telegram user it was signed for, or the sentence saying why
 * not. The signature is checked before anything the data says is read.
 */
export async function checkInitData(initData: string, botToken: string, nowMs: number): Promise<Parsed<MiniAppUser>> {
  const fields = initDataFields(initData);
  if (fields === null) return fail(INIT_DATA_TEXT.malformed);
  const hash = fields.get("hash");
  if (hash === undefined || hash === "") return fail(INIT_DATA_TEXT.noHash);
  const mac = hexBytes(hash);
  // A hash that is not 64 hex digits is compared all the same (with zeros), so that a reply says nothing sooner.
  const valid = await crypto.subtle.verify("HMAC", await webAppKey(botToken), mac ?? new Uint8Array(32), encoder.encode(dataCheckString(fields)));
  if (!valid || mac === null) return fail(INIT_DATA_TEXT.badHash);
  const authDate = /^\d{1,12}$/.test(fields.get("auth_date") ?? "") ? Number(fields.get("auth_date")) : null;
  if (authDate === null) return fail(INIT_DATA_TEXT.noDate);
  const now = Math.floor(nowMs / 1000);
  if (now - authDate > INIT_DATA_MAX_AGE_SECONDS) return fail(INIT_DATA_TEXT.old);
  if (authDate - now > INIT_DATA_MAX_AHEAD_SECONDS) return fail(INIT_DATA_TEXT.ahead);
  let user: unknown = null;
  try {
    user = JSON.parse(fields.get("user") ?? "null");
  } catch {
    // Signed, yet not JSON: treated as no user.
  }
  const parsed = userSchema().safeParse(user);
  if (!parsed.success) return fail(INIT_DATA_TEXT.noUser);
  return ok({ userId: String(parsed.data.id), authDate, groupId: groupOf(fields) });
}

/** The group the Mini App was opened for: the attachment menu's `chat` (a group's), else a `start_param` that is a group id. */
function groupOf(fields: ReadonlyMap<string, string>): string | null {
  let chat: unknown = null;
  try {
    chat = JSON.parse(fields.get("chat") ?? "null");
  } catch {
    // Signed, yet not JSON: no chat.
  }
  if (typeof chat === "object" && chat !== null) {
    const { id, type } = chat as { id?: unknown; type?: unknown };
    if ((type === "group" || type === "supergroup") && typeof id === "number" && GROUP_ID.test(String(id))) return String(id);
  }
  const start = fields.get("start_param") ?? "";
  return GROUP_ID.test(start) ? start : null;
}
