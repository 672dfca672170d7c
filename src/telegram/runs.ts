/**
 * @module The document model of Telegram sending (docs/telegram.md): a message is lines of styled runs under the
 * tags Telegram accepts, grouped in blocks (code, quotes). markdown.ts builds them, split.ts packs them into
 * parts. Pure.
 */

/** An element Telegram accepts, as its tags. Compared by identity: two adjacent `<b>` elements stay two. */
export interface Tag {
  readonly open: string;
  readonly close: string;
}

/** A stretch of one line under the same tags. `plainOnly` text (a link's ` (url)`) is shown only in plain text. */
export interface Run {
  readonly tags: readonly Tag[];
  readonly text: string;
  readonly plainOnly: boolean;
}

/** What wraps consecutive lines: a fenced code block or a quote. Compared by identity. */
export interface Block {
  readonly open: string;
  readonly close: string;
}

/** One line of the message: its runs, and the block it belongs to (`null` at top level). */
export interface Line {
  readonly block: Block | null;
  readonly runs: readonly Run[];
}

/** `<`, `>` and `&` as entities: the only escaping Telegram's HTML needs outside attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

export function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

/** A simple element: `<name>` … `</name>`. */
export const tag = (name: string): Tag => ({ open: `<${name}>`, close: `</${name}>` });
