/**
 * The updates Telegram sends from groups, supergroups and forum topics (issue 26), written out as the Bot API
 * documents them (core.telegram.org/bots/api: Update, Message, Chat, MessageEntity, ChatMemberUpdated, and the
 * service messages of a group's upgrade to a supergroup), with the fields Telegram sends that the bot does not
 * read kept in: `all_members_are_administrators`, `language_code`, `chat_instance`, a topic's
 * `forum_topic_created`. Shared by the unit tests of the pure parts and the worker tests of the webhook.
 */

/** The bot as getMe names it in these tests. */
export const BOT_USERNAME = "cuckoo_test_bot";

export type TgUser = { id: number; is_bot: boolean; first_name: string; username?: string; language_code?: string };
export type TgChat = { id: number; type: "group" | "supergroup" | "private"; title?: string; is_forum?: boolean; all_members_are_administrators?: boolean };

export const person = (id: string | number, name = "Ada"): TgUser => ({
  id: Number(id),
  is_bot: false,
  first_name: name,
  username: name.toLowerCase(),
  language_code: "en",
});
export const botUser = (botId: string): TgUser => ({ id: Number(botId), is_bot: true, first_name: "Cuckoo", username: BOT_USERNAME });

/** A basic group (`-4…`), as Telegram describes one in a message. */
export const basicGroup = (id: string, title = "Family"): TgChat => ({ id: Number(id), title, type: "group", all_members_are_administrators: true });
/** A supergroup (`-100…`); with `forum`, one with topics. */
export const supergroup = (id: string, title = "Team", forum = false): TgChat => ({
  id: Number(id),
  title,
  type: "supergroup",
  ...(forum ? { is_forum: true } : {}),
});

const date = () => Math.floor(Date.now() / 1000);

/** The entities Telegram marks in a text: a leading `/command[@bot]` and every `@username`. */
function entitiesOf(text: string): { offset: number; length: number; type: string }[] {
  const out: { offset: number; length: number; type: string }[] = [];
  const command = /^\/[A-Za-z0-9_]+(?:@[A-Za-z0-9_]+)?/.exec(text);
  if (command) out.push({ offset: 0, length: command[0].length, type: "bot_command" });
  for (const m of text.matchAll(/(^|\s)(@[A-Za-z0-9_]{5,32})/g)) out.push({ offset: m.index + m[1]!.length, length: m[2]!.length, type: "mention" });
  return out;
}

/** A text message in a group or supergroup from `from`. */
export function groupText(updateId: number, chat: TgChat, from: TgUser, text: string, extra: Record<string, unknown> = {}) {
  const entities = entitiesOf(text);
  return {
    update_id: updateId,
    message: { message_id: updateId % 100_000, from, chat, date: date(), text, ...(entities.length > 0 ? { entities } : {}), ...extra },
  };
}

/**
 * A message in a forum topic: `message_thread_id` and `is_topic_message`, replying (as every topic message
 * does, unless it replies to another) to the topic's first message, the service message that created it.
 */
export function topicText(updateId: number, chat: TgChat, from: TgUser, threadId: number, text: string, topic = "Standup") {
  return groupText(updateId, chat, from, text, inTopic(chat, from, threadId, topic));
}

/** The fields of a message sent in a forum topic: its thread, and the topic's first message replied to (opened by `opener`). */
export function inTopic(chat: TgChat, opener: TgUser, threadId: number, topic = "Standup") {
  const root = {
    message_id: threadId,
    from: opener,
    chat,
    date: date() - 3600,
    message_thread_id: threadId,
    forum_topic_created: { name: topic, icon_color: 7322096 },
    is_topic_message: true,
  };
  return { message_thread_id: threadId, is_topic_message: true, reply_to_message: root };
}

/**
 * A reply in a forum topic to one of the bot's messages there (`replied`: its id and text as the bot sent it):
 * the replied message, not the topic's first, is `reply_to_message`.
 */
export function topicReply(
  updateId: number,
  chat: TgChat,
  from: TgUser,
  threadId: number,
  botId: string,
  replied: { message_id: number; text: string },
  text: string,
) {
  const original = { ...replied, from: botUser(botId), chat, date: date() - 60, message_thread_id: threadId, is_topic_message: true };
  return groupText(updateId, chat, from, text, { message_thread_id: threadId, is_topic_message: true, reply_to_message: original });
}

/**
 * A group message its sender edited (`edited_message`): the original's `message_id` and fields (`extra`: its
 * topic, when it was sent in one), the new text, and `edit_date`.
 */
export function groupEdit(updateId: number, chat: TgChat, from: TgUser, messageId: number, text: string, extra: Record<string, unknown> = {}) {
  const { message } = groupText(updateId, chat, from, text, extra);
  return { update_id: updateId, edited_message: { ...message, message_id: messageId, date: date() - 60, edit_date: date() } };
}

/** A reply in a group to one of the bot's messages. */
export function replyToBot(updateId: number, chat: TgChat, from: TgUser, botId: string, text: string) {
  const replied = { message_id: 7, from: botUser(botId), chat, date: date() - 60, text: "No scheduled jobs." };
  return groupText(updateId, chat, from, text, { reply_to_message: replied });
}

/** A message that mentions the bot's user without a username (`text_mention`, the user given whole). */
export function textMention(updateId: number, chat: TgChat, from: TgUser, botId: string, text: string, name = "Cuckoo") {
  const at = text.indexOf(name);
  return {
    update_id: updateId,
    message: {
      message_id: updateId % 100_000,
      from,
      chat,
      date: date(),
      text,
      entities: [{ offset: at, length: name.length, type: "text_mention", user: botUser(botId) }],
    },
  };
}

/** The old group's last message when it became a supergroup: `migrate_to_chat_id` names the new id. */
export function migrateTo(updateId: number, group: string, to: string, from: TgUser) {
  return { update_id: updateId, message: { message_id: updateId % 100_000, from, chat: basicGroup(group), date: date(), migrate_to_chat_id: Number(to) } };
}

/** The new supergroup's first message: `migrate_from_chat_id` names the group it was. */
export function migrateFrom(updateId: number, to: string, group: string, from: TgUser) {
  return { update_id: updateId, message: { message_id: 1, from, chat: supergroup(to, "Family"), date: date(), migrate_from_chat_id: Number(group) } };
}

/** The bot's own membership changing (`my_chat_member`): `status` is its new one, `was` its old one. */
export function myChatMember(updateId: number, chat: TgChat, by: TgUser, botId: string, was: string, status: string) {
  const member = (s: string) => ({ user: botUser(botId), status: s, ...(s === "kicked" ? { until_date: 0 } : {}) });
  return { update_id: updateId, my_chat_member: { chat, from: by, date: date(), old_chat_member: member(was), new_chat_member: member(status) } };
}

/** A button pressed under a message (`messageId`) in a group, in its topic when given (`chat_instance` is Telegram's, and unread). */
export function groupPress(updateId: number, chat: TgChat, from: TgUser, data: string, threadId?: number, messageId = 9) {
  const thread = threadId === undefined ? {} : { message_thread_id: threadId, is_topic_message: true };
  return {
    update_id: updateId,
    callback_query: {
      id: `cb${updateId}`,
      from,
      chat_instance: "-5327390851289745212",
      message: { message_id: messageId, date: date(), chat, text: "Stand up", ...thread },
      data,
    },
  };
}

/** Telegram's stand-in sender of an anonymous admin's message (`from`), whose real sender is the group (`sender_chat`). */
export const GROUP_ANONYMOUS_BOT: TgUser = { id: 1087968824, is_bot: true, first_name: "Group", username: "GroupAnonymousBot" };

/** A message an anonymous admin sends as the group itself. */
export function asGroup(updateId: number, chat: TgChat, text: string) {
  return groupText(updateId, chat, GROUP_ANONYMOUS_BOT, text, { sender_chat: { id: chat.id, title: chat.title, type: chat.type } });
}
