/**
 * @module A group's Mini App session rests on Telegram's word that its user is in the group (docs/api.md#the-mini-app-session;
 * issue 32): `getChatMember`, asked through the group's object, which remembers the answer. The session is signed
 * at sign-in and again on a request once that answer is 5 minutes old (Telegram is asked again when the answer
 * the group remembers is that old too), and it ends 10 minutes after the answer it rests on. So no request,
 * a read or a change, rests on an answer older than 10 minutes; a session in use never lapses; a user removed
 * from the group is refused at their first request after the check; and an idle session ends, after which a new
 * sign-in asks Telegram again. A renewed session goes back as a new cookie, and in `X-Cuckoo-Session` for a
 * client that sends it as a bearer token (a web view that keeps no cookie).
 */
import type { Context } from "hono";
import { appCookie, GROUP_SESSION_SECONDS, newGroupSession } from "./app-session";
import { chatStub } from "./chat-rpc";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";

/** A group's session is checked with Telegram again once the answer it rests on is this old: half its life. */
export const RECHECK_AFTER_MS = (GROUP_SESSION_SECONDS * 1000) / 2;
/** The response header that carries a renewed session to a client that sends it as a bearer token. */
export const SESSION_HEADER = "X-Cuckoo-Session";

/** The 403 sentence for a user who opened a group's scheduler without being in the group. */
export const notMemberText = (userId: string, groupId: string): string =>
  `Telegram user ${userId} is not a member of group ${groupId}, so its scheduler does not open for them.`;

/** The 403 sentence for a session whose user has left the group, or was removed, since it was signed. */
export const leftGroupText = (userId: string, groupId: string): string =>
  `Telegram user ${userId} is no longer a member of group ${groupId}, so its scheduler is closed to them.`;

/** A signed group session: its value, its expiry (Unix seconds) and whether it may only read. */
export type GroupSession = { value: string; expiresAt: number; readOnly: boolean };

/**
 * Asks the group's object what `userId` is in group `groupId` (Telegram asked again when the remembered answer is
 * older than `RECHECK_AFTER_MS`) and signs the session that follows: 10 minutes past that answer, never past `endsAt`
 * (Unix seconds). Anyone not in the group is 403. `renewing` a session: the sentence for one who left, and null
 * when Telegram could not be asked (the session stands until its own end, and the next request asks again).
 */
export async function signGroupSession(c: Context<AppEnv>, groupId: string, userId: string, endsAt: number, renewing: true): Promise<GroupSession | null>;
export async function signGroupSession(c: Context<AppEnv>, groupId: string, userId: string, endsAt: number, renewing: false): Promise<GroupSession>;
export async function signGroupSession(c: Context<AppEnv>, groupId: string, userId: string, endsAt: number, renewing: boolean): Promise<GroupSession | null> {
  const { botToken, allowedUserIds } = c.var.config.telegram;
  const checked = await chatStub(c.env, groupId).memberRole(groupId, userId, RECHECK_AFTER_MS);
  if (!checked.ok && renewing && checked.error.code === "conflict") return null;
  if (!checked.ok) throw new ApiError(checked.error.code, checked.error.message);
  const { role, ageMs } = checked.value;
  if (role === "none") throw new ApiError("forbidden", renewing ? leftGroupText(userId, groupId) : notMemberText(userId, groupId));
  const expiresAt = Math.min(Math.floor((Date.now() - ageMs) / 1000) + GROUP_SESSION_SECONDS, endsAt);
  const readOnly = role !== "admin" && !allowedUserIds.includes(userId);
  const value = await newGroupSession(botToken!, { chatId: groupId, userId, readOnly, expiresAt, endsAt });
  return { value, expiresAt, readOnly };
}

/** The headers that hand a renewed session back: a new cookie, and the value for a bearer client. */
export function sendRenewed(c: Context<AppEnv>, session: GroupSession): void {
  c.header("Set-Cookie", appCookie(session.value, Math.max(0, session.expiresAt - Math.floor(Date.now() / 1000))));
  c.header(SESSION_HEADER, session.value);
  c.header("Cache-Control", "no-store");
}
