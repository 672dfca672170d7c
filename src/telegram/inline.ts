/**
 * @module Inline Markdown (docs/telegram.md "Sending"): `**bold**`/`__bold__`, `*italic*`/`_italic_`, `~~strike~~`,
 * `` `code` ``, `[links](https://…)` and `<https://…>`, with CommonMark's delimiter rules for emphasis (so
 * `snake_case` and `* * *` stay literal), turned into runs under Telegram's tags. Broken markup stays text.
 * Pure; no Workers imports.
 */
import { escapeAttribute, type Run, type Tag, tag } from "./runs";

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

const ASCII_PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const PUNCTUATION = /^[\p{P}\p{S}]$/u;
const WHITESPACE = /^\s$/u;
const LINK_TARGET = /^https?:\/\/[^\s<>]+$/i;
const AUTOLINK = /^<(https?:\/\/[^\s<>]+)>/i;
/** Longer addresses stay text: a part must always fit a reopened `<a href>` (split.ts). */
export const MAX_HREF = 2048;

/** Inline Markdown as runs under `tags` (a heading's text is bold; a link's label never holds a link). */
export function inlineRuns(text: string, tags: readonly Tag[] = []): Run[] {
  return toRuns(parseInline(text, true), tags, false);
}

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
