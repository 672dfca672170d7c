/**
 * @module Markdown → Telegram (docs/telegram.md): a message's lines (fenced code blocks with an optional language, `>`
 * quotes, `-`/`*`/`+` bullets, `#` headings, `---` rules; inline markup is inline.ts's), and those lines
 * written out as Telegram HTML or plain text. Only tags Telegram accepts are written (b, i, s, code, pre, pre > code.language-x,
 * a href, blockquote), always balanced, nested only as Telegram allows (code never inside b/i/s or a link);
 * anything else, including broken markup, stays as escaped text. Lines are the unit render.ts joins and
 * split.ts packs into parts. Pure; no Workers imports.
 */
import { inlineRuns } from "./inline";
import { type Block, escapeHtml, type Line, type Run, type Tag, tag } from "./runs";

/** The tags that turn the open elements `from` into `to`: close what `to` does not share, open the rest. */
export function transition(from: readonly Tag[], to: readonly Tag[]): string {
  if (from === to) return "";
  let common = 0;
  while (common < from.length && common < to.length && from[common] === to[common]) common++;
  let out = "";
  for (let k = from.length - 1; k >= common; k--) out += from[k]!.close;
  for (let k = common; k < to.length; k++) out += to[k]!.open;
  return out;
}

/** One line's HTML: its visible runs escaped, with balanced tags. */
export function runsHtml(runs: readonly Run[]): string {
  let out = "";
  let open: readonly Tag[] = [];
  for (const run of runs) {
    if (run.plainOnly || run.text === "") continue;
    out += transition(open, run.tags) + escapeHtml(run.text);
    open = run.tags;
  }
  return out + transition(open, []);
}

/** One line's plain text. */
export function runsText(runs: readonly Run[]): string {
  let out = "";
  for (const run of runs) out += run.text;
  return out;
}

/** Lines joined with `\n`, each run of lines of one block wrapped in its tags. */
export function joinLines(lines: readonly { block: Block | null; html: string }[]): string {
  let out = "";
  let i = 0;
  while (i < lines.length) {
    if (i > 0) out += "\n";
    const block = lines[i]!.block;
    if (!block) {
      out += lines[i]!.html;
      i++;
      continue;
    }
    out += block.open;
    for (let first = true; i < lines.length && lines[i]!.block === block; first = false, i++) {
      out += (first ? "" : "\n") + lines[i]!.html;
    }
    out += block.close;
  }
  return out;
}

// ------------------------------------------------------------------------------------------------- blocks

const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,32}$/;
const QUOTE = /^ {0,3}> ?(.*)$/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t](.*))?$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET = /^([ \t]*)[-*+][ \t]+(.*)$/;

/** Splits Markdown into lines of runs: code blocks kept verbatim, quotes grouped, the rest parsed inline. */
export function parseMarkdown(markdown: string): Line[] {
  const source = markdown.replace(/\r\n?/g, "\n").split("\n");
  const lines: Line[] = [];
  let quote: Block | null = null;
  for (let i = 0; i < source.length; i++) {
    const text = source[i]!;
    const fence = FENCE.exec(text);
    if (fence && !(fence[2]![0] === "`" && fence[3]!.includes("`"))) {
      const indent = fence[1]!.length;
      const marker = fence[2]!;
      const language = fence[3]!.trim().split(/\s+/)[0] ?? "";
      const block: Block = LANGUAGE.test(language)
        ? { open: `<pre><code class="language-${language}">`, close: "</code></pre>" }
        : { open: "<pre>", close: "</pre>" };
      // CommonMark: an unclosed fence runs to the end of the message.
      for (i++; i < source.length && !closesFence(source[i]!, marker); i++) {
        lines.push({ block, runs: plain(stripIndent(source[i]!, indent)) });
      }
      quote = null;
      continue;
    }
    const quoted = QUOTE.exec(text);
    if (quoted) {
      quote ??= { open: "<blockquote>", close: "</blockquote>" };
      lines.push({ block: quote, runs: lineRuns(quoted[1]!) });
      continue;
    }
    quote = null;
    lines.push({ block: null, runs: lineRuns(text) });
  }
  return lines;
}

function closesFence(text: string, marker: string): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(text);
  return m !== null && m[1]![0] === marker[0] && m[1]!.length >= marker.length;
}

function stripIndent(text: string, indent: number): string {
  let k = 0;
  while (k < indent && text[k] === " ") k++;
  return text.slice(k);
}

const plain = (text: string): Run[] => (text === "" ? [] : [{ tags: [], text, plainOnly: false }]);

/** A line outside code blocks: a heading (bold), a rule, a bullet (`• `) or a paragraph line. */
function lineRuns(text: string): Run[] {
  const heading = HEADING.exec(text);
  if (heading) {
    return inlineRuns(headingText(heading[1] ?? ""), [tag("b")]);
  }
  if (RULE.test(text)) return plain("———");
  const bullet = BULLET.exec(text);
  if (bullet) return [...plain(`${bullet[1]!}• `), ...inlineRuns(bullet[2]!)];
  return inlineRuns(text);
}

/** The heading's text without a closing sequence of `#`s (`# Title ##` → `Title`; `# C#` keeps its `#`). */
function headingText(raw: string): string {
  const text = raw.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end === text.length || (end > 0 && text[end - 1] !== " " && text[end - 1] !== "\t")) return text;
  return text.slice(0, end).trimEnd();
}
