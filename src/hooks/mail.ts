/**
 * @module A raw email (the whole message, as Email Routing hands it to the Worker) read into the text a job wakes with:
 * `From:` and `Subject:` lines, a blank line, the body as plain text (an HTML-only mail converted here), then the
 * attachments by name and size, never their content. postal-mime parses the message; it is a module of its own
 * (src/vendor/load.ts), loaded on the first mail, not at startup. A malformed message never throws: what cannot
 * be parsed still gives the best text it can.
 */
import { postalMime } from "../vendor/load";

type Email = import("postal-mime").Email;
type Address = import("postal-mime").Address;
type Attachment = import("postal-mime").Attachment;

/** What a mail gives the job: its input text, and what the caller may want beside it. */
export interface MailInput {
  /** `From: …\nSubject: …\n\n<body>`, then `\n\nAttachments:\n- …` when there are any. */
  text: string;
  /** The Message-ID without its angle brackets, or null. */
  messageId: string | null;
  /** The sender's bare address in lower case, or null. */
  from: string | null;
}

const NO_FROM = "(unknown)";
const NO_SUBJECT = "(no subject)";
const NO_TEXT = "(no text)";

/** Reads a raw message into the job's input. Throws only if postal-mime itself cannot be loaded. */
export async function readMail(raw: ArrayBuffer | Uint8Array | string): Promise<MailInput> {
  const PostalMime = await postalMime();
  let email: Email;
  try {
    email = await PostalMime.parse(raw);
  } catch {
    // Only the parser's limits (nesting, part count, header size) make it throw: the mail is still read as text.
    return { text: compose(NO_FROM, NO_SUBJECT, bodyOf(rawBody(raw)), ""), messageId: null, from: null };
  }
  const sender = mailboxOf(email.from);
  const subject = oneLine(email.subject ?? "");
  const text = compose(sender ? formatSender(sender) : NO_FROM, subject || NO_SUBJECT, bodyOf(textOf(email)), attachmentLines(email.attachments));
  return { text, messageId: messageIdOf(email.messageId), from: sender?.address ? sender.address.toLowerCase() : null };
}

function compose(from: string, subject: string, body: string, attachments: string): string {
  return `From: ${from}\nSubject: ${subject}\n\n${body}${attachments}`;
}

/** The plain text of the mail, else its HTML as text, else "". */
function textOf(email: Email): string {
  if (email.text?.trim()) return email.text;
  return email.html ? htmlToText(email.html) : "";
}

/** The body as the job reads it: `\n` line endings, no blank lines before it, no whitespace after it. */
function bodyOf(text: string): string {
  const body = text
    .replace(/\r\n?/g, "\n")
    .replace(/^(?:[ \t]*\n)+/, "")
    .trimEnd();
  return body || NO_TEXT;
}

/** The body of a message the parser refused: the text after the header block's blank line, if any. */
function rawBody(raw: ArrayBuffer | Uint8Array | string): string {
  const text = (typeof raw === "string" ? raw : new TextDecoder().decode(raw)).replace(/\r\n?/g, "\n");
  const end = text.indexOf("\n\n");
  return end < 0 ? "" : text.slice(end + 2);
}

interface Sender {
  name: string;
  address: string;
}

/** The From's mailbox; for a group, its first member, else its name alone. */
function mailboxOf(from: Address | undefined): Sender | null {
  if (!from) return null;
  const mailbox = from.group ? (from.group[0] ?? { name: from.name, address: "" }) : from;
  const name = oneLine(mailbox.name);
  const address = oneLine(mailbox.address);
  return name || address ? { name, address } : null;
}

function formatSender({ name, address }: Sender): string {
  if (!address) return name;
  return name ? `${name} <${address}>` : address;
}

function messageIdOf(value: string | undefined): string | null {
  const id = oneLine(value ?? "")
    .replace(/^<|>$/g, "")
    .trim();
  return id || null;
}

/**
 * A header value or file name on one line: a decoded encoded word can hold line breaks, and a file name control
 * or bidirectional characters, which would otherwise let a sender write lines of their own into the job's input.
 */
function oneLine(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** `\n\nAttachments:\n- name (size)` per attachment, or "" when there are none. */
function attachmentLines(attachments: readonly Attachment[]): string {
  if (attachments.length === 0) return "";
  const lines = attachments.map((attachment) => {
    const size = formatSize(sizeOf(attachment.content));
    const name = oneLine(attachment.filename ?? "");
    if (name) return `- ${name} (${size})`;
    const type = oneLine(attachment.mimeType ?? "");
    return type ? `- unnamed (${type}, ${size})` : `- unnamed (${size})`;
  });
  return `\n\nAttachments:\n${lines.join("\n")}`;
}

function sizeOf(content: Attachment["content"]): number {
  return typeof content === "string" ? new TextEncoder().encode(content).byteLength : content.byteLength;
}

const UNITS = ["KB", "MB", "GB"] as const;

/**
 * A byte count as people read it: `N B` under 1024, then KB, MB, GB (of 1024) with one decimal below 100 and
 * whole numbers from 100 on; a value that rounds to 1024 is said in the next unit.
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  for (const [index, unit] of UNITS.entries()) {
    const shown = Number(value.toFixed(1)) < 100 ? value.toFixed(1) : String(Math.round(value));
    if (Number(shown) < 1024 || index === UNITS.length - 1) return `${shown} ${unit}`;
    value /= 1024;
  }
  return `${bytes} B`;
}

/** Elements whose content is no text of the mail. */
const HIDDEN = new Set(["script", "style", "head", "title", "template"]);
/** Elements that start and end a paragraph: a blank line around them. */
const PARAGRAPHS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "hr"]);
/** Elements that start and end a line. */
const LINES = new Set(["div", "tr", "li", "section", "article", "header", "footer", "dt", "dd", "address"]);

/**
 * An HTML body as readable plain text: tags dropped (script, style and head with their content), a line break for
 * `<br>` and for each block's start and end, a blank line around paragraphs and headings, `- ` before list items, a
 * link's address after its text when the two differ, entities decoded, runs of spaces and of blank lines
 * collapsed, trimmed. One pass over the string and no backtracking regex over it, so a hostile body costs linear time.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  // Line breaks owed before the next text: blocks ask for one or two (not one per tag, or each list item would
  // stand in a paragraph of its own), each `<br>` adds one.
  let pending = 0;
  const write = (text: string) => {
    if (pending > 0) {
      // Whitespace between blocks is the source's indentation, not text.
      if (!text.trim()) return;
      if (out.length > 0) out.push("\n".repeat(pending));
      pending = 0;
    }
    out.push(text);
  };
  let link: { href: string; start: number } | null = null;
  let pre = 0;
  let i = 0;
  const n = html.length;
  while (i < n) {
    const lt = html.indexOf("<", i);
    if (lt < 0 || lt > i) write(textOfHtml(html.slice(i, lt < 0 ? n : lt), pre > 0));
    if (lt < 0) break;
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    TAG_NAME.lastIndex = lt;
    const match = TAG_NAME.exec(html);
    if (!match) {
      // `<!doctype …>`, `<?xml …>`: markup without text. Any other `<` is text ("a < b").
      if (html[lt + 1] === "!" || html[lt + 1] === "?") {
        const end = html.indexOf(">", lt);
        i = end < 0 ? n : end + 1;
      } else {
        write("<");
        i = lt + 1;
      }
      continue;
    }
    const closing = match[1] === "/";
    const name = match[2]!.toLowerCase();
    const end = tagEnd(html, TAG_NAME.lastIndex);
    const attributes = html.slice(TAG_NAME.lastIndex, end);
    i = end + 1;
    if (HIDDEN.has(name) && !closing) {
      i = hiddenEnd(html, name, i);
      continue;
    }
    if (name === "br") pending++;
    else if (PARAGRAPHS.has(name)) pending = Math.max(pending, 2);
    else if (LINES.has(name)) pending = Math.max(pending, 1);
    else if (name === "td" || name === "th") write(" ");
    if (name === "li" && !closing) write("- ");
    if (name === "pre") pre = Math.max(0, pre + (closing ? -1 : 1));
    if (name === "a") {
      if (link) write(linkTail(link, out));
      link = closing ? null : { href: hrefOf(attributes), start: out.length };
    }
  }
  if (link) write(linkTail(link, out));
  return out
    .join("")
    .replace(/[ \t\u00a0]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

const TAG_NAME = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/y;

/** Where a tag ends: its `>`, skipping quoted attribute values (which may hold one); the string's end if none. */
function tagEnd(html: string, from: number): number {
  let j = from;
  while (j < html.length) {
    const c = html[j];
    if (c === ">") return j;
    if (c === '"' || c === "'") {
      const close = html.indexOf(c, j + 1);
      if (close < 0) return html.length;
      j = close + 1;
    } else j++;
  }
  return html.length;
}

/**
 * Where a hidden element's content ends: after its closing tag, or at the end of the string when it has none,
 * as a browser reads an unclosed script. An unclosed head ends where the body starts.
 */
function hiddenEnd(html: string, name: string, from: number): number {
  const close = new RegExp(name === "head" ? "</head\\b|<body\\b" : `</${name}\\b`, "gi");
  close.lastIndex = from;
  const found = close.exec(html);
  if (!found) return name === "head" ? from : html.length;
  if (found[0].toLowerCase() === "<body") return found.index;
  const end = html.indexOf(">", close.lastIndex);
  return end < 0 ? html.length : end + 1;
}

/** The text of a run between tags: source line breaks and indentation are spaces, except in `<pre>`. */
function textOfHtml(text: string, pre: boolean): string {
  return decodeEntities(pre ? text.replace(/\r\n?/g, "\n") : text.replace(/\s+/g, " "));
}

function hrefOf(attributes: string): string {
  const match = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(attributes);
  return decodeEntities((match?.[1] ?? match?.[2] ?? match?.[3] ?? "").trim());
}

/** ` (href)` after a link whose text does not already say where it goes, for web and mail addresses only. */
function linkTail(link: { href: string; start: number }, out: readonly string[]): string {
  if (!/^(https?:|mailto:)/i.test(link.href)) return "";
  const text = out.slice(link.start).join("").replace(/\s+/g, " ").trim();
  const bare = link.href.replace(/^mailto:/i, "");
  return text === link.href || text === bare ? "" : ` (${bare})`;
}

/** HTML's Latin-1 entities, U+00A0 to U+00FF in order (umlauts and accents are what mail writes most). */
const LATIN1 =
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para " +
  "middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute " +
  "Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute " +
  "THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde " +
  "ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml";

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ...LATIN1.split(" ").map((name, index) => [name, String.fromCharCode(0xa0 + index)] as const),
  // A no-break space is a space in plain text, and a soft hyphen nothing.
  ["nbsp", " "],
  ["shy", ""],
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["ndash", "\u2013"],
  ["mdash", "\u2014"],
  ["hellip", "\u2026"],
  ["lsquo", "\u2018"],
  ["rsquo", "\u2019"],
  ["ldquo", "\u201c"],
  ["rdquo", "\u201d"],
  ["bull", "\u2022"],
  ["trade", "\u2122"],
  ["euro", "\u20ac"],
]);

/**
 * Named and numeric character references, in one pass (so `&amp;lt;` is `&lt;`); names are case-sensitive (`&Auml;`
 * is not `&auml;`), except that `&AMP;` and its like are read too; an unknown name stays as written.
 */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,7}));/g, (whole, dec?: string, hex?: string, named?: string) => {
    if (named !== undefined) return ENTITIES.get(named) ?? ENTITIES.get(named.toLowerCase()) ?? whole;
    const code = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
    // A NUL, a lone surrogate or a point past Unicode is not a character: the replacement character, as browsers do.
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return "\ufffd";
    return String.fromCodePoint(code);
  });
}
