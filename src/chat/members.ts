/**
 * @module Who may change what in a chat (docs/telegram.md#groups-and-topics). In a private chat its user may. In a
 * group anyone may read; creating, changing or removing a job, the zone or quiet hours, and a button's action,
 * are for the users in ALLOWED_USER_IDS and the group's administrators, which Telegram's `getChatMember` tells
 * (asked only when someone tries to change something, never to read), remembered here for at most 10 minutes,
 * so that a user removed as admin loses the right within that time. A getChatMember that fails refuses the
 * change with a sentence; it never grants it.
 */
import { type Config, isGroupId } from "../config";
import { err, ok, type Result } from "../result";
import { ADMINS_ONLY } from "../schemas/tools";
import { callBotApi, TelegramError } from "../telegram/api";
import { ENGLISH } from "../texts";
import { type ChatInfo, UNBOUND } from "./info";
import type { MemberRole, MemberStore } from "./store/members";

export type { MemberRole };

export { ADMINS_ONLY };
/** The answer when Telegram could not be asked. */
export const RIGHTS_UNKNOWN = ENGLISH.t.problems.rightsUnknown;
/** How long what getChatMember said is believed. */
export const ROLE_KEPT_MS = 10 * 60_000;
/** getChatMember is asked while the user waits for an answer: a shorter limit than a send's. */
const CHECK_TIMEOUT_MS = 5_000;

/** A ChatMember's status as a role: `creator` and `administrator` are admins; `restricted` counts while still a member. */
export function roleOf(member: { status: string; is_member?: boolean }): MemberRole {
  if (member.status === "creator" || member.status === "administrator") return "admin";
  if (member.status === "member") return "member";
  return member.status === "restricted" && member.is_member === true ? "member" : "none";
}

export type MemberDeps = { store: MemberStore; info: ChatInfo; config: () => Config; now: () => number };

/** A user's place in the chat, and how old Telegram's answer is (0: asked just now, or no Telegram to ask). */
export type MemberCheck = { role: MemberRole; ageMs: number };

export class MemberRights {
  constructor(private readonly d: MemberDeps) {}

  /**
   * `check` as an RPC asks it: of a Telegram user of chat `chatId`, once the object is bound to it; Telegram is asked
   * again when its remembered answer is older than `maxAgeMs` (at most 10 minutes).
   */
  roleIn(chatId: string, userId: string, maxAgeMs?: number): Promise<Result<MemberCheck>> {
    return this.ofUser(chatId, userId, (user) => this.check(user, maxAgeMs));
  }

  /** `mayChange` as an RPC asks it: of a Telegram user of chat `chatId`, once the object is bound to it. */
  mayChangeIn(chatId: string, userId: string): Promise<Result<boolean>> {
    return this.ofUser(chatId, userId, (user) => this.mayChange(user));
  }

  /** `ask` of a Telegram user of this chat, once the object is bound to it and the id is a user id. */
  private async ofUser<T>(chatId: string, userId: string, ask: (userId: string) => Promise<Result<T>>): Promise<Result<T>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    if (typeof userId !== "string" || !/^[1-9]\d{0,15}$/.test(userId)) return err("bad_request", `"${String(userId).slice(0, 20)}" is not a Telegram user id.`);
    return ask(userId);
  }

  /**
   * `userId`'s place in this chat: in a group what getChatMember says (remembered 10 minutes); in a private chat
   * its user is its admin, and no one else is in it. In transcript mode there is no Telegram to ask, and only the
   * operator writes: admin.
   */
  async role(userId: string): Promise<Result<MemberRole>> {
    const checked = await this.check(userId);
    return checked.ok ? ok(checked.value.role) : checked;
  }

  /**
   * `role`, with the age of Telegram's answer, which is asked again when the one remembered is older than
   * `maxAgeMs` (at most the 10 minutes an answer is kept): a Mini App session of the group rests on it.
   */
  async check(userId: string, maxAgeMs: unknown = ROLE_KEPT_MS): Promise<Result<MemberCheck>> {
    const chatId = this.d.info.chatId();
    if (chatId === null) return err("bad_request", UNBOUND);
    if (!isGroupId(chatId)) return ok({ role: userId === chatId ? "admin" : "none", ageMs: 0 });
    const t = this.d.config().telegram;
    if (t.mode === "off" || t.botToken === null) return ok({ role: "admin", ageMs: 0 });
    const fresh = typeof maxAgeMs === "number" && Number.isFinite(maxAgeMs) ? Math.min(Math.max(maxAgeMs, 0), ROLE_KEPT_MS) : ROLE_KEPT_MS;
    const now = this.d.now();
    const known = this.d.store.get(userId);
    if (known && now - known.checkedAt < fresh) return ok({ role: known.role, ageMs: now - known.checkedAt });
    let role: MemberRole;
    try {
      role = roleOf(await callBotApi({ base: t.apiBase, token: t.botToken }, "getChatMember", { chat_id: chatId, user_id: Number(userId) }, CHECK_TIMEOUT_MS));
    } catch (error) {
      // Telegram knows no such member of this group ("user not found", "PARTICIPANT_ID_INVALID"): not one.
      if (error instanceof TelegramError && error.code === 400 && error.migrateTo === null) role = "none";
      else {
        console.error(`chat ${chatId}: getChatMember for ${userId} failed`, error instanceof Error ? error.message : error);
        return err("conflict", RIGHTS_UNKNOWN, { key: "rightsUnknown", args: [] });
      }
    }
    this.d.store.set(userId, role, now, ROLE_KEPT_MS);
    return ok({ role, ageMs: 0 });
  }

  /** Whether `userId` may change this chat's jobs and settings: a listed user always; in a group its admins. */
  async mayChange(userId: string): Promise<Result<boolean>> {
    if (this.d.config().telegram.allowedUserIds.includes(userId)) return ok(true);
    const role = await this.role(userId);
    return role.ok ? ok(role.value === "admin") : role;
  }
}
