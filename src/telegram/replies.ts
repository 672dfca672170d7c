/**
 * @module Replies (docs/telegram.md#replies-and-edited-messages): a message that replies to another carries that message's
 * text, quoted (`> ` before each line), before its own, so the agent reads what it answers; `/remind <when>`
 * with no text, as a reply, reminds of the quoted message. And a message's text as the chat keeps it: at most
 * Telegram's own length. Pure.
 */
import { parseCommand } from "./commands";
import type { RepliedTo } from "./host";

/** Telegram's own limit for a message's text; a longer one (a forged update) is cut before it is queued. */
export const TEXT_LIMIT = 4096;

/** At most `TEXT_LIMIT` UTF-16 units, never splitting a character in two. */
export function capText(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= TEXT_LIMIT) return text;
  const cut = text.slice(0, TEXT_LIMIT);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** `text` as a Markdown quote: `> ` before each line. */
export function quote(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .trim()
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** A message that replies to `repliedTo`: the quoted message, a blank line, then its own text. */
export function withQuote(repliedTo: string | null, text: string): string {
  return repliedTo === null || repliedTo.trim() === "" ? text : `${quote(repliedTo)}\n\n${text}`;
}

/** What a user's message is kept and sent to the agent as: a command as typed; other text after what it replies to, quoted. */
export function entryText(text: string, repliedTo: RepliedTo | null): string {
  return repliedTo === null || parseCommand(text) !== null ? text : withQuote(repliedTo.text, text);
}
