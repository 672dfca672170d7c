/**
 * @module Whether a message is for this bot (docs/telegram.md#groups-and-topics), decided purely from the message and
 * the bot's identity. In a private chat everything is. In a group a command is the bot's when it is bare or
 * names this bot (`/jobs@cuckoo_bot`), never when it names another bot; any other message is for the agent only
 * when it mentions the bot (an `@username` mention, or a text mention of its user) or replies to one of its
 * messages. Everything else in a group is none of the bot's business: no agent turn and no reminder offer.
 */
import { isCommandName } from "./menu";
import type { UpdateMessage } from "./update";

/** Who the bot is: its user id (the number before the token's colon) and, once `getMe` told it, its username. */
export type BotIdentity = { id: string; username: string | null };

/** The bot's user id, from its token (`123456789:AAE…`): no call needed. */
export const botIdOf = (token: string): string => token.slice(0, token.indexOf(":"));

/** `/cmd` or `/cmd@name` at the start of a text: the name and the bot it names, if any. */
const COMMAND = /^\/([A-Za-z0-9_]+)(?:@([A-Za-z0-9_]+))?(?=\s|$)/;

/** `command`: a command of this bot; `agent`: a message for the agent (or the no-model reply); `none`: not the bot's. */
export type Addressed = "command" | "agent" | "none";

const isGroupChat = (type: string): boolean => type === "group" || type === "supergroup";

/**
 * Whether deciding needs the bot's username (`getMe`): a group message that names some bot in a command or
 * mentions someone by `@username`. Bare commands, replies and text mentions are decided without it.
 */
export function needsUsername(message: UpdateMessage): boolean {
  if (!isGroupChat(message.chat.type)) return COMMAND.exec((message.text ?? "").trim())?.[2] !== undefined;
  const text = message.text ?? message.caption ?? "";
  if (COMMAND.exec(text.trim())?.[2] !== undefined) return true;
  return (message.entities ?? message.caption_entities ?? []).some((e) => e.type === "mention");
}

/** Whether the message mentions the bot: `@username` (case-insensitive, as Telegram matches it) or a text mention of its user. */
function mentions(message: UpdateMessage, bot: BotIdentity): boolean {
  const text = message.text ?? message.caption ?? "";
  const entities = message.entities ?? message.caption_entities ?? [];
  // Entity offsets count UTF-16 units, as JavaScript strings do.
  return entities.some((e) => {
    if (e.type === "text_mention") return e.user !== undefined && String(e.user.id) === bot.id;
    if (e.type !== "mention" || bot.username === null) return false;
    return text.slice(e.offset, e.offset + e.length).toLowerCase() === `@${bot.username.toLowerCase()}`;
  });
}

/**
 * Whether the message replies to one of the bot's. In a forum topic every message replies to the topic's first
 * (its creation), which is no reply to anyone, whoever opened the topic.
 */
function repliesToBot(message: UpdateMessage, bot: BotIdentity): boolean {
  const replied = message.reply_to_message;
  if (replied?.from === undefined || String(replied.from.id) !== bot.id) return false;
  return !(message.is_topic_message === true && replied.message_id === message.message_thread_id);
}

/** What the message is to this bot (`needsUsername` says when `bot.username` must be known). */
export function addressed(message: UpdateMessage, bot: BotIdentity): Addressed {
  const text = (message.text ?? "").trim();
  const command = COMMAND.exec(text);
  const named = command?.[2];
  const ours = named === undefined || (bot.username !== null && named.toLowerCase() === bot.username.toLowerCase());
  if (!isGroupChat(message.chat.type)) {
    // A private chat: a command naming another bot is plain text for the agent, as before.
    return command && ours && isCommandName(command[1]!.toLowerCase()) ? "command" : "agent";
  }
  if (command) {
    if (!ours) return "none";
    // `/jobs` and `/jobs@this_bot`; an unknown `/foo` is someone else's, unless it names this bot.
    if (isCommandName(command[1]!.toLowerCase())) return "command";
    return named !== undefined ? "agent" : "none";
  }
  return repliesToBot(message, bot) || mentions(message, bot) ? "agent" : "none";
}
