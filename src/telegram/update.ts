/**
 * @module The part of a Telegram Update the bot reads (docs/telegram.md), parsed with zod; types of the full Bot API
 * come from @grammyjs/types where a shape is sent back. Anything else in an update is ignored. Read: a
 * message (its text or caption and their entities, the message it replies to, its forum topic, a group's move
 * to a supergroup), a pressed button, and the bot's own membership of a chat changing (`my_chat_member`).
 */
import * as z from "zod";

import { lazy } from "../lazy";
import { COPY_KINDS, type CopyKind } from "./copyable";

export const updateSchema = lazy(() => {
  const user = z.object({ id: z.number().int(), is_bot: z.boolean().optional(), username: z.string().optional(), language_code: z.string().optional() });
  const chat = z.object({ id: z.number().int(), type: z.string(), is_forum: z.boolean().optional() });
  // `mention` (@username, read from the text) and `text_mention` (a user without a username, given whole).
  const entity = z.object({ type: z.string(), offset: z.number().int(), length: z.number().int(), user: user.optional() });
  const thread = { message_thread_id: z.number().int().optional(), is_topic_message: z.boolean().optional() };
  // What a message holds besides text, by its field (docs/telegram.md#remind-me-about-this): present or not, and a poll's type.
  const kinds = {
    ...Object.fromEntries([...COPY_KINDS, "paid_media", "giveaway", "giveaway_winners", "invoice"].map((k) => [k, z.unknown().optional()])),
    poll: z.object({ type: z.string().optional() }).optional(),
    has_protected_content: z.boolean().optional(),
  } as Record<CopyKind | "paid_media" | "giveaway" | "giveaway_winners" | "invoice", z.ZodOptional<z.ZodUnknown>> & {
    poll: z.ZodOptional<z.ZodObject<{ type: z.ZodOptional<z.ZodString> }>>;
    has_protected_content: z.ZodOptional<z.ZodBoolean>;
  };
  // The message a message replies to: its id (a job's message names its job), its text, quoted to the agent, its
  // sender (a reply to the bot is for it) and its topic.
  const replied = z.object({
    message_id: z.number().int(),
    from: user.optional(),
    text: z.string().optional(),
    caption: z.string().optional(),
    ...thread,
    ...kinds,
  });
  const message = z.object({
    message_id: z.number().int(),
    from: user.optional(),
    // An anonymous admin writes as the group itself (`from` is then Telegram's @GroupAnonymousBot).
    sender_chat: chat.optional(),
    chat,
    date: z.number().int().optional(),
    text: z.string().optional(),
    entities: z.array(entity).optional(),
    caption: z.string().optional(),
    caption_entities: z.array(entity).optional(),
    reply_to_message: replied.optional(),
    ...thread,
    ...kinds,
    // A basic group became a supergroup: the old group's last message names the new id, the new one's first the old.
    migrate_to_chat_id: z.number().int().optional(),
    migrate_from_chat_id: z.number().int().optional(),
  });
  // ChatMember: `creator`, `administrator`, `member`, `restricted` (with `is_member`), `left` or `kicked`.
  const member = z.object({ status: z.string(), user, is_member: z.boolean().optional() });
  return z.object({
    update_id: z.number().int().nonnegative(),
    message: message.optional(),
    // A message the user edited (docs/telegram.md#replies-and-edited-messages): an edited /remind or /every edits its job.
    edited_message: message.optional(),
    callback_query: z
      .object({
        id: z.string(),
        from: user,
        message: z.object({ message_id: z.number().int(), chat, ...thread }).optional(),
        data: z.string().optional(),
      })
      .optional(),
    my_chat_member: z.object({ chat, from: user, date: z.number().int(), old_chat_member: member, new_chat_member: member }).optional(),
  });
});
export type Update = z.infer<ReturnType<typeof updateSchema>>;
export type UpdateMessage = NonNullable<Update["message"]>;

/** A forum topic's id, when a message was sent in one (`is_topic_message`); null for the chat's main thread. */
function topicOf(message: { message_thread_id?: number | undefined; is_topic_message?: boolean | undefined }): number | null {
  // A reply in a group without topics carries a message_thread_id too (its reply thread), which sendMessage refuses.
  return message.is_topic_message === true && message.message_thread_id !== undefined ? message.message_thread_id : null;
}

/** Where an update comes from: the chat, its type, the user who caused it, and the forum topic it is in. */
export type Origin = { chatId: string; userId: string; chatType: string; threadId: number | null };

/** The chat an update belongs to and the user who sent it, when it is one the bot serves at all. */
export function updateOrigin(update: Update): Origin | null {
  const m = update.message ?? update.edited_message;
  if (m?.from) return { chatId: String(m.chat.id), userId: String(m.from.id), chatType: m.chat.type, threadId: topicOf(m) };
  const q = update.callback_query;
  if (q?.message) return { chatId: String(q.message.chat.id), userId: String(q.from.id), chatType: q.message.chat.type, threadId: topicOf(q.message) };
  const member = update.my_chat_member;
  if (member) return { chatId: String(member.chat.id), userId: String(member.from.id), chatType: member.chat.type, threadId: null };
  return null;
}

/** A group's message an anonymous admin sent as the group: only its administrators can write so. */
export function fromAnonymousAdmin(message: UpdateMessage | undefined): boolean {
  return message?.sender_chat !== undefined && message.sender_chat.id === message.chat.id;
}

/** Whether the bot is in the chat after a `my_chat_member` change: false once it left or was removed (kicked). */
export function botIsIn(member: { status: string; is_member?: boolean | undefined }): boolean {
  if (member.status === "left" || member.status === "kicked") return false;
  return member.status !== "restricted" || member.is_member !== false;
}

/** The supergroup a basic group became, named by either message of Telegram's pair: `{ from, to }` chat ids. */
export function migrationOf(message: UpdateMessage): { from: string; to: string } | null {
  if (message.migrate_to_chat_id !== undefined) return { from: String(message.chat.id), to: String(message.migrate_to_chat_id) };
  if (message.migrate_from_chat_id !== undefined) return { from: String(message.migrate_from_chat_id), to: String(message.chat.id) };
  return null;
}
