/**
 * @module Which chats the webhook serves (docs/api.md, docs/telegram.md): the private chats of the users in ALLOWED_USER_IDS
 * (a private chat's id is its user's), the groups and supergroups in ALLOWED_CHAT_IDS, and a supergroup that a
 * listed basic group became (Telegram gives it a new id), served as the group was until the operator lists the
 * new id: the supergroup's object wrote that move into the D1 directory's `moves` table. Only a group id that is
 * not listed costs a D1 read; a move found is remembered for the isolate's life (a move is never undone).
 */
import { type Config, isAllowedChat } from "../config";
import type { Origin } from "../telegram/update";

let moved: Map<string, string> | undefined;

/** The basic group that `chatId` (a supergroup) was, as the D1 directory says, or null. */
export async function movedFrom(db: D1Database, chatId: string): Promise<string | null> {
  moved ??= new Map();
  const known = moved.get(chatId);
  if (known !== undefined) return known;
  let from: string | null = null;
  try {
    from = (await db.prepare("SELECT from_chat_id FROM moves WHERE to_chat_id = ?").bind(chatId).first<string>("from_chat_id")) ?? null;
  } catch (error) {
    console.error(`telegram: could not read whether chat ${chatId} was a group that moved`, error instanceof Error ? error.message : error);
    return null;
  }
  if (from !== null) moved.set(chatId, from);
  return from;
}

/** Whether a group chat is served: listed, or the supergroup a listed group became. */
export async function servedGroup(config: Config, db: D1Database, chatId: string): Promise<boolean> {
  if (config.telegram.allowedChatIds.includes(chatId)) return true;
  if (!chatId.startsWith("-100")) return false;
  const from = await movedFrom(db, chatId);
  return from !== null && isAllowedChat(config, from);
}

/** Whether the webhook serves an update from `origin` at all. */
export async function served(config: Config, db: D1Database, origin: Origin): Promise<boolean> {
  if (origin.chatType === "private") return origin.chatId === origin.userId && config.telegram.allowedUserIds.includes(origin.userId);
  if (origin.chatType !== "group" && origin.chatType !== "supergroup") return false;
  return servedGroup(config, db, origin.chatId);
}
