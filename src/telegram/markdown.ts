/**
 * @module The document model behind Telegram sending (DESIGN §6): Markdown parsed into lines of styled runs,
 * and those lines written out as Telegram HTML or plain text. It reads the subset agents and our own texts
 * use: `**bold**`/`__bold__`, `*italic*`/`_italic_`, `~~strike~~`, `` `code` ``, fenced code blocks with an
 * optional language, `[links](https://…)` and `<https://…>`, `>` quotes, `-`/`*`/`+` bullets, `#` headings,
 * `---` rules and backslash escapes. Emphasis follows CommonMark's delimiter rules (so `snake_case` and
 * `* * *` stay literal). Only tags Telegram accepts are written (b, i, s, code, pre, pre > code.language-x,
 * a href, blockquote), always balanced, nested only as Telegram allows (code never inside b/i/s or a link);
 * anything else, including broken markup, stays as escaped text. Lines are the unit render.ts joins and
 * split.ts packs into parts. Pure; no Workers imports.
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

// ---------------------------------------------------------------------------------------------- HTML output

/** `<`, `>` and `&` as entities: the only escaping Telegram's HTML needs outside attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

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
    return toRuns(parseInline(headingText(heading[1] ?? ""), true), [tag("b")], false);
  }
  if (RULE.test(text)) return plain("———");
  const bullet = BULLET.exec(text);
  if (bullet) return [...plain(`${bullet[1]!}• `), ...toRuns(parseInline(bullet[2]!, true), [], false)];
  return toRuns(parseInline(text, true), [], false);
}

/** The heading's text without a closing sequence of `#`s (`# Title ##` → `Title`; `# C#` keeps its `#`). */
function headingText(raw: string): string {
  const text = raw.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end === text.length || (end > 0 && text[end - 1] !== " " && text[end - 1] !== "\t")) return text;
  return text.slice(0, end).trimEnd();
}

// ------------------------------------------------------------------------------------------------- inline

type Node =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "code"; readonly text: string }
  | { readonly kind: "em"; readonly tag: "b" | "i" | "s"; readonly children: Node[] }
  | { readonly kind: "link"; readonly href: string; readonly children: Node[] };

/** A run of `*`, `_` or `~~` that may open or close emphasis; `count` is what is left unmatched. */
interface Delimiter {
  readonly kind: "delim";
  readonly ch: string;
  readonly orig: number;
  count: number;
  readonly canOpen: boolean;
  readonly canClose: boolean;
  readonly opens: ("b" | "i" | "s")[];
  readonly closes: ("b" | "i" | "s")[];
}

const tag = (name: string): Tag => ({ open: `<${name}>`, close: `</${name}>` });

const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const PUNCTUATION = /^[\p{P}\p{S}]$/u;
const WHITESPACE = /^\s$/u;
const LINK_TARGET = /^https?:\/\/[^\s<>]+$/i;
const AUTOLINK = /^<(https?:\/\/[^\s<>]+)>/i;
/** Longer addresses stay text: a part must always fit a reopened `<a href>` (split.ts). */
export const MAX_HREF = 2048;

function toRuns(nodes: readonly Node[], tags: readonly Tag[], inLink: boolean, out: Run[] = []): Run[] {
  for (const node of nodes) {
    if (node.kind === "text") push(out, tags, node.text);
    // Telegram nests nothing around or inside code, and a link cannot contain it: code inside a link is text.
    else if (node.kind === "code") push(out, inLink ? tags : [tag("code")], node.text);
    else if (node.kind === "em") toRuns(node.children, [...tags, tag(node.tag)], inLink, out);
    else {
      toRuns(node.children, [...tags, { open: `<a href="${escapeAttribute(node.href)}">`, close: "</a>" }], true, out);
      if (textOf(node.children) !== node.href) out.push({ tags: [], text: ` (${node.href})`, plainOnly: true });
    }
  }
  return out;
}

function push(out: Run[], tags: readonly Tag[], text: string): void {
  if (text === "") return;
  const last = out[out.length - 1];
  if (last && last.tags === tags && !last.plainOnly) out[out.length - 1] = { tags, text: last.text + text, plainOnly: false };
  else out.push({ tags, text, plainOnly: false });
}

function textOf(nodes: readonly Node[]): string {
  return nodes.map((n) => (n.kind === "text" || n.kind === "code" ? n.text : textOf(n.children))).join("");
}

/** The code point ending just before `i`, or "" at the start. */
function before(s: string, i: number): string {
  if (i <= 0) return "";
  const low = s.charCodeAt(i - 1);
  return i >= 2 && low >= 0xdc00 && low <= 0xdfff ? s.slice(i - 2, i) : s[i - 1]!;
}

function after(s: string, i: number): string {
  const cp = s.codePointAt(i);
  return cp === undefined ? "" : String.fromCodePoint(cp);
}

function runLength(s: string, i: number): number {
  let k = i;
  while (s[k] === s[i]) k++;
  return k - i;
}

/** The index just past the backtick run that closes the one of length `n` ending at `from`, or -1. */
function codeEnd(s: string, from: number, n: number): number {
  for (let k = s.indexOf("`", from); k !== -1; k = s.indexOf("`", k)) {
    const len = runLength(s, k);
    if (len === n) return k + n;
    k += len;
  }
  return -1;
}

/** Parses one line's inline markup into a tree; `links` is false inside a link's label. */
function parseInline(s: string, links: boolean): Node[] {
  const items: (Node | Delimiter)[] = [];
  let text = "";
  const flush = () => {
    if (text !== "") items.push({ kind: "text", text });
    text = "";
  };
  let pairs: Map<number, number> | undefined;
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === "\\" && i + 1 < s.length && ASCII_PUNCTUATION.test(s[i + 1]!)) {
      text += s[i + 1];
      i += 2;
    } else if (c === "`") {
      const n = runLength(s, i);
      const end = codeEnd(s, i + n, n);
      if (end === -1) {
        text += s.slice(i, i + n);
      } else {
        let code = s.slice(i + n, end - n);
        if (code.length > 1 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
        flush();
        items.push({ kind: "code", text: code });
      }
      i += end === -1 ? n : end - i;
    } else if (c === "*" || c === "_" || c === "~") {
      const n = runLength(s, i);
      if (c === "~" && n !== 2) text += s.slice(i, i + n);
      else {
        flush();
        items.push(delimiter(c, n, before(s, i), after(s, i + n)));
      }
      i += n;
    } else if (c === "[" && links) {
      pairs ??= bracketPairs(s);
      const link = parseLink(s, i, pairs.get(i));
      if (link) {
        flush();
        items.push(link.node);
        i = link.end;
      } else {
        text += c;
        i++;
      }
    } else if (c === "<" && links && AUTOLINK.test(s.slice(i, i + MAX_HREF + 2))) {
      const href = AUTOLINK.exec(s.slice(i, i + MAX_HREF + 2))![1]!;
      flush();
      items.push({ kind: "link", href, children: [{ kind: "text", text: href }] });
      i += href.length + 2;
    } else {
      text += c;
      i++;
    }
  }
  flush();
  matchEmphasis(items.filter((item): item is Delimiter => item.kind === "delim"));
  return buildTree(items);
}

/** CommonMark's flanking rules: `_` does not open or close inside a word, `*` does. */
function delimiter(ch: string, n: number, prev: string, next: string): Delimiter {
  const spaceBefore = prev === "" || WHITESPACE.test(prev);
  const spaceAfter = next === "" || WHITESPACE.test(next);
  const punctBefore = PUNCTUATION.test(prev);
  const punctAfter = PUNCTUATION.test(next);
  const left = !spaceAfter && (!punctAfter || spaceBefore || punctBefore);
  const right = !spaceBefore && (!punctBefore || spaceAfter || punctAfter);
  const canOpen = ch === "_" ? left && (!right || punctBefore) : left;
  const canClose = ch === "_" ? right && (!left || punctAfter) : right;
  return { kind: "delim", ch, orig: n, count: n, canOpen, canClose, opens: [], closes: [] };
}

/**
 * CommonMark's "process emphasis": each closer, left to right, takes the nearest matching opener; delimiters
 * between them are dropped (they stay literal), so matches always nest. `prev` links skip dropped ones and
 * `bottom` remembers where a search already failed, keeping a long line linear.
 */
function matchEmphasis(ds: Delimiter[]): void {
  const prev = ds.map((_, k) => k - 1);
  const bottom = new Map<string, number>();
  for (let k = 0; k < ds.length; k++) {
    const closer = ds[k]!;
    while (closer.canClose && closer.count > 0) {
      const key = `${closer.ch}${closer.canOpen ? 1 : 0}${closer.orig % 3}`;
      const floor = bottom.get(key) ?? -1;
      let j = prev[k]!;
      while (j > floor && !matches(ds[j]!, closer)) j = prev[j]!;
      if (j <= floor) {
        bottom.set(key, k - 1);
        break;
      }
      const opener = ds[j]!;
      const n = closer.ch === "~" || (opener.count >= 2 && closer.count >= 2) ? 2 : 1;
      const kind = closer.ch === "~" ? "s" : n === 2 ? "b" : "i";
      opener.count -= n;
      closer.count -= n;
      opener.opens.push(kind);
      closer.closes.push(kind);
      prev[k] = opener.count > 0 ? j : prev[j]!;
    }
    if (k + 1 < ds.length && (closer.count === 0 || !closer.canOpen)) prev[k + 1] = prev[k]!;
  }
}

function matches(opener: Delimiter, closer: Delimiter): boolean {
  if (!opener.canOpen || opener.count === 0 || opener.ch !== closer.ch) return false;
  // The "rule of 3": `*foo**bar*` is not `<i>foo</i><i>bar</i>`-with-a-stray-`*`.
  const both = opener.canClose || closer.canOpen;
  return !(both && (opener.orig + closer.orig) % 3 === 0 && !(opener.orig % 3 === 0 && closer.orig % 3 === 0));
}

/** Emits each delimiter as its closes, its unmatched characters, and its opens (innermost last). */
function buildTree(items: readonly (Node | Delimiter)[]): Node[] {
  const root: Node[] = [];
  const stack: Node[][] = [root];
  for (const item of items) {
    if (item.kind !== "delim") {
      stack[stack.length - 1]!.push(item);
      continue;
    }
    for (let k = 0; k < item.closes.length; k++) stack.pop();
    if (item.count > 0) stack[stack.length - 1]!.push({ kind: "text", text: item.ch.repeat(item.count) });
    for (let k = item.opens.length - 1; k >= 0; k--) {
      const children: Node[] = [];
      stack[stack.length - 1]!.push({ kind: "em", tag: item.opens[k]!, children });
      stack.push(children);
    }
  }
  return root;
}

/**
 * Each `[` and the `]` that closes it, found in one pass (escapes and code spans skipped), so a line of
 * unclosed brackets is not rescanned from every `[`.
 */
function bracketPairs(s: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let k = 0; k < s.length; k++) {
    const c = s[k];
    if (c === "\\") k++;
    else if (c === "`") {
      const n = runLength(s, k);
      const end = codeEnd(s, k + n, n);
      k = (end === -1 ? k + n : end) - 1;
    } else if (c === "[") open.push(k);
    else if (c === "]" && open.length > 0) pairs.set(open.pop()!, k);
  }
  return pairs;
}

/** `[label](https://…)` or `[label](<https://…>)`; any other target (or a title) leaves it text. */
function parseLink(s: string, start: number, close: number | undefined): { node: Node; end: number } | null {
  if (close === undefined || s[close + 1] !== "(") return null;
  // Scans stop after MAX_HREF characters, so a line of `[a](` is not rescanned to its end from each one.
  let k = close + 2;
  let href = "";
  if (s[k] === "<") {
    const end = s.slice(k, k + MAX_HREF + 2).indexOf(">");
    if (end === -1) return null;
    href = s.slice(k + 1, k + end);
    k += end + 1;
  } else if (/^https?:\/\//i.test(s.slice(k, k + 8))) {
    const from = k;
    for (let parens = 0; k < s.length && k - from <= MAX_HREF && !/[\s<>]/.test(s[k]!); k++) {
      if (s[k] === "(") parens++;
      else if (s[k] === ")" && parens-- === 0) break;
    }
    href = s.slice(from, k);
  }
  if (s[k] !== ")" || href.length > MAX_HREF || !LINK_TARGET.test(href)) return null;
  const label = s.slice(start + 1, close);
  const children = label.trim() === "" ? [{ kind: "text" as const, text: href }] : parseInline(label, false);
  return { node: { kind: "link", href, children }, end: k + 1 };
}
