/**
 * @module Markdown → Telegram messages (docs/telegram.md "Sending"): the HTML for parse mode HTML, the plain-text
 * fallback for "can't parse entities", and (from split.ts) the parts of at most 4096 UTF-16 units. What is
 * read and how it maps to Telegram's tags is in markdown.ts. Pure; no Workers imports.
 */
import { joinLines, parseMarkdown, runsHtml, runsText } from "./markdown";

export { splitForTelegram, TELEGRAM_MESSAGE_LIMIT, type TelegramPart } from "./split";

/** Renders Markdown to Telegram's HTML parse mode (no length limit; `splitForTelegram` applies that). */
export function renderTelegramHtml(markdown: string): string {
  return joinLines(parseMarkdown(markdown).map((line) => ({ block: line.block, html: runsHtml(line.runs) })));
}

/**
 * The plain-text fallback, sent without parse mode when Telegram cannot parse the HTML: markup removed, code
 * fences dropped with their content kept, a link shown as `label (url)` so the address is not lost.
 */
export function plainText(markdown: string): string {
  return parseMarkdown(markdown)
    .map((line) => runsText(line.runs))
    .join("\n");
}
