/**
 * @module Replies (docs/telegram.md#replies-and-edited-messages): a message that replies to another carries that message's
 * text, quoted (`> ` before each line), before its own, so the agent reads what it answers; `/remind <when>`
 * with no text, as a reply, reminds of the quoted message. Pure.
 */

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
