/** What the e2e tests of the Telegram chat share: the HTML of the bot's replies, and texts stamped with "now". */

/**
 * The Telegram HTML of our replies' little Markdown (`**bold**`, `` `code` ``), written out here: the e2e tier
 * sees the Worker as a black box (src/telegram/render.ts has its own tests).
 */
export const renderTelegramHtml = (markdown: string) =>
  markdown
    .replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
    .replace(/\*\*([^*]+)\*\*/g, "<b>$1</b>")
    .replace(/`([^`]+)`/g, "<code>$1</code>");

/** The texts a reply stamped with "now" may hold between `t0` and `t1`. */
export const minutes = (t0: number, t1: number, text: (now: number) => string) => [...new Set([text(t0), text(t1)])].map(renderTelegramHtml);
