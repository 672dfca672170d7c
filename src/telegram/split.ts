/**
 * @module Splits a Markdown message into Telegram messages (docs/telegram.md "Sending").
 *
 * What counts: Telegram limits a message to 4096 characters of text after entity parsing, counted in UTF-16
 * code units. We bound more than that: each part's HTML string itself (tags and entities included) is at
 * most `limit` UTF-16 units, which bounds the parsed text below it whatever Telegram counts, and each part's
 * plain-text fallback is at most `limit` units on its own. Markup-heavy text therefore splits a little
 * early (a line of `&` fits 819 per part), never late.
 *
 * How: whole lines are packed greedily, a part ending at a line boundary (that newline is dropped); a code
 * block or quote cut by a part boundary is closed at the end of one part and reopened, same language, at
 * the start of the next. A line too long for a part of its own is hard-split at a space in the second half
 * of the part if there is one, else between grapheme clusters, never inside a surrogate pair, an entity or a
 * tag; inline tags open at the cut are closed and reopened. Parts with no visible text are dropped (Telegram
 * refuses an empty message), so blank input gives no parts. Pure; no Workers imports.
 */
import { lazy } from "../lazy";
import { joinLines, parseMarkdown, runsHtml, runsText, transition } from "./markdown";
import { type Block, escapeHtml, type Line, type Run, type Tag } from "./runs";

/** One message to send: the HTML (parse mode HTML) and the plain text to resend on "can't parse entities". */
export interface TelegramPart {
  readonly html: string;
  readonly text: string;
}

/** Telegram's limit on a message's text, in UTF-16 code units. */
export const TELEGRAM_MESSAGE_LIMIT = 4096;

/** The smallest limit accepted: room for a code block's tags, a reopened link and a few characters. */
export const MIN_LIMIT = 256;

interface Piece {
  readonly block: Block | null;
  readonly html: string;
  readonly text: string;
  /** Whether the HTML shows anything but whitespace. */
  readonly visible: boolean;
}

/**
 * Renders and splits `markdown` into parts whose HTML and plain text are each at most `limit` UTF-16 units,
 * every part non-empty. Joining the parts' `text` with `\n` gives `plainText(markdown)` when no line was
 * hard-split and no part was blank.
 */
export function splitForTelegram(markdown: string, limit = TELEGRAM_MESSAGE_LIMIT): TelegramPart[] {
  if (!Number.isInteger(limit) || limit < MIN_LIMIT) throw new RangeError(`The limit must be an integer of at least ${MIN_LIMIT}; got ${limit}.`);
  const parts: TelegramPart[] = [];
  let pieces: Piece[] = [];
  let htmlLength = 0;
  let textLength = 0;

  const flush = () => {
    if (pieces.some((p) => p.visible)) parts.push({ html: joinLines(pieces), text: pieces.map((p) => p.text).join("\n") });
    pieces = [];
    htmlLength = 0;
    textLength = 0;
  };
  /** The part's lengths with `piece` added: a newline before it, and its block's tags if it starts a group. */
  const grown = (piece: Piece) => {
    const last = pieces[pieces.length - 1];
    const newline = last ? 1 : 0;
    const wrap = piece.block && piece.block !== last?.block ? overhead(piece.block) : 0;
    return { html: htmlLength + newline + wrap + piece.html.length, text: textLength + newline + piece.text.length };
  };
  const fits = (piece: Piece) => {
    const next = grown(piece);
    return next.html <= limit && next.text <= limit;
  };
  const add = (piece: Piece) => {
    const next = grown(piece);
    htmlLength = next.html;
    textLength = next.text;
    pieces.push(piece);
  };

  for (const line of parseMarkdown(markdown)) {
    const piece = toPiece(line.block, line.runs);
    if (!fits(piece)) flush();
    if (fits(piece)) {
      add(piece);
      continue;
    }
    // Too long for a part of its own: each fragment but the last is a part; the last starts the next one.
    hardSplit(line, limit - overhead(line.block), limit).forEach((fragment, k) => {
      if (k > 0) flush();
      add(fragment);
    });
  }
  flush();
  return parts;
}

function overhead(block: Block | null): number {
  return block ? block.open.length + block.close.length : 0;
}

function toPiece(block: Block | null, runs: readonly Run[]): Piece {
  return { block, html: runsHtml(runs), text: runsText(runs), visible: runs.some((r) => !r.plainOnly && r.text.trim() !== "") };
}

/** The smallest unit a hard split keeps whole: a code point (a cut then moves back to a cluster's start). */
interface Atom {
  tags: readonly Tag[];
  readonly text: string;
  readonly plainOnly: boolean;
  readonly space: boolean;
}

/** A cluster longer than this many code points (a letter under many combining marks) may be cut inside. */
const MAX_CLUSTER = 16;

const graphemes = lazy(() =>
  typeof Intl !== "undefined" && typeof Intl.Segmenter === "function" ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null,
);

function atomsOf(runs: readonly Run[]): Atom[] {
  const atoms: Atom[] = [];
  for (const run of runs) {
    for (const text of run.text) atoms.push({ tags: run.tags, text, plainOnly: run.plainOnly, space: text.trim() === "" });
  }
  return atoms;
}

const ascii = (text: string) => text.charCodeAt(0) < 0x7f;

/**
 * Moves a cut before `atoms[i]` back to the start of the grapheme cluster holding it, so a flag, a skin-tone
 * emoji or a letter with its accents stays in one part. Only text from `start` (a cluster boundary) is
 * segmented: regional-indicator pairs are counted from there.
 */
function clusterStart(atoms: readonly Atom[], start: number, i: number): number {
  if (ascii(atoms[i]!.text) && ascii(atoms[i - 1]!.text)) return i;
  const segmenter = graphemes();
  if (!segmenter) return i;
  let text = "";
  for (let k = start; k <= i; k++) text += atoms[k]!.text;
  let offset = text.length - atoms[i]!.text.length;
  const clusterAt = segmenter.segment(text).containing(offset)?.index ?? offset;
  let b = i;
  while (offset > clusterAt && i - b < MAX_CLUSTER) offset -= atoms[--b]!.text.length;
  return offset === clusterAt && b > start ? b : i;
}

/** Atoms back into runs, one per stretch under the same tags. */
function merge(atoms: readonly Atom[], start: number, end: number): Run[] {
  const runs: Run[] = [];
  for (let k = start; k < end; ) {
    const { tags, plainOnly } = atoms[k]!;
    let text = "";
    for (; k < end && atoms[k]!.tags === tags && atoms[k]!.plainOnly === plainOnly; k++) text += atoms[k]!.text;
    runs.push({ tags, text, plainOnly });
  }
  return runs;
}

const closing = (tags: readonly Tag[]) => transition(tags, []).length;

function escapedLength(text: string): number {
  if (text.length === 1) return text === "&" ? 5 : text === "<" || text === ">" ? 4 : 1;
  return escapeHtml(text).length;
}

/**
 * Cuts one line into fragments whose HTML (with the tags open at the cut closed, and reopened in the next
 * fragment) is at most `htmlBudget` and whose text is at most `textBudget` units.
 */
function hardSplit(line: Line, htmlBudget: number, textBudget: number): Piece[] {
  const atoms = atomsOf(line.runs);
  const fragments: Piece[] = [];
  let start = 0;
  while (start < atoms.length) {
    let open: readonly Tag[] = [];
    let close = 0;
    let html = 0;
    let text = 0;
    let spaceCut = -1;
    let i = start;
    for (; i < atoms.length; i++) {
      const atom = atoms[i]!;
      const tags = atom.plainOnly ? open : atom.tags;
      const tagsClose = tags === open ? close : closing(tags);
      const step = atom.plainOnly ? 0 : transition(open, tags).length + escapedLength(atom.text);
      if (html + step + tagsClose > htmlBudget || text + atom.text.length > textBudget) break;
      html += step;
      text += atom.text.length;
      open = tags;
      close = tagsClose;
      // A cut after a space, unless only plain-only text (a link's address) would follow it.
      if (atom.space && !atoms[i + 1]?.plainOnly) spaceCut = i + 1;
    }
    if (i === start) {
      // Not even one atom fits under its tags (a small limit and a long link): send it unformatted.
      if (atoms[i]!.tags.length === 0) throw new Error(`A character does not fit in a part of ${htmlBudget} units.`);
      atoms[i]!.tags = [];
      continue;
    }
    const end = i === atoms.length ? i : spaceCut - start >= (i - start) / 2 ? spaceCut : clusterStart(atoms, start, i);
    fragments.push(toPiece(line.block, merge(atoms, start, end)));
    start = end;
  }
  return fragments;
}
