/**
 * @module "Remind me about this" for any message (docs/telegram.md#remind-me-about-this): which messages the bot may bring
 * back at fire time with `copyMessage`, and how a message is named when it has no words of its own. A photo, video,
 * voice note, document, location and the like, and a forwarded message, are copied; a text of the chat is quoted into
 * the reminder, as before. Telegram
 * will not copy a service message, paid media, a giveaway, an invoice, a quiz (the bot does not know its answer) or
 * protected content: those are refused when the reminder is made. Pure.
 */
import { COPY_KINDS, type CopyKind } from "../contracts/copy";
import type { RepliedTo } from "./host";

export { COPY_KINDS, type CopyKind };

/** Fields of messages Telegram will not copy. */
const NOT_COPIED = ["paid_media", "giveaway", "giveaway_winners", "invoice"] as const;

/** The part of a message this reads: which fields it has, its poll's type, whether its content is protected. */
export type CopySource = Partial<Record<CopyKind | (typeof NOT_COPIED)[number], unknown>> & {
  text?: string | undefined;
  has_protected_content?: boolean | undefined;
};

/**
 * What a reminder does with the message it is about: `quote` a text (its words are the prompt), `copy` anything else
 * Telegram copies (of `kind`), or `refuse` one it will not.
 */
export function copyOf(message: CopySource): { act: "quote" } | { act: "copy"; kind: CopyKind } | { act: "refuse" } {
  if (message.has_protected_content === true || NOT_COPIED.some((k) => message[k] !== undefined)) return { act: "refuse" };
  const poll = message.poll as { type?: string } | undefined;
  if (poll?.type === "quiz") return { act: "refuse" };
  const kind = COPY_KINDS.find((k) => message[k] !== undefined);
  if (kind !== undefined) return { act: "copy", kind };
  return message.text !== undefined ? { act: "quote" } : { act: "refuse" };
}

/** What `/remind` does with a message it is about, as the command's `repliedTo` says it: bring it back, or refuse it. */
export function copyTo(message: CopySource & { message_id: number }): Pick<RepliedTo, "copy"> {
  const copy = copyOf(message);
  if (copy.act === "copy") return { copy: { messageId: message.message_id, kind: copy.kind } };
  return copy.act === "refuse" ? { copy: "refused" } : {};
}

/**
 * The caption of a photo, voice note … that is `/remind <when>`: a reminder about the message itself
 * (docs/telegram.md#remind-me-about-this); undefined for any other message.
 */
export function remindCaption(message: { text?: string | undefined; caption?: string | undefined } | undefined): string | undefined {
  if (message === undefined || message.text !== undefined) return undefined;
  return /^\/remind(?:@\w+)?(?:\s|$)/i.test(message.caption ?? "") ? message.caption : undefined;
}
