/**
 * @module The text of an iCalendar file (RFC 5545 section 3.1, section 3.3): content lines joined by CRLF and folded at 75 octets
 * (never inside a UTF-8 character), TEXT values escaped, and the forms of a date-time (UTC `…Z`, or local with a
 * TZID), a UTC offset and a duration. Pure; the calendar feed (`feed.ts`) writes through it.
 */

/** The longest a content line may be, in octets, before it is folded (RFC 5545 section 3.1). */
const LINE_OCTETS = 75;

const encoder = new TextEncoder();

/** A TEXT value escaped (RFC 5545 section 3.3.11): backslash, semicolon, comma, and every line break as `\n`. */
export function escapeText(text: string): string {
  return text
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

/**
 * One content line folded: at most 75 octets per physical line, each continuation starting with a space (which
 * counts towards its 75). A character is never split, so a line may end a few octets short.
 */
export function fold(line: string): string {
  if (encoder.encode(line).length <= LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  let limit = LINE_OCTETS;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
      limit = LINE_OCTETS - 1; // the leading space of a continuation line
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/** Content lines as a file: each folded, each ending in CRLF. */
export function icsText(lines: readonly string[]): string {
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** `20270328T010000Z`: an instant (epoch ms) as a UTC DATE-TIME, to the second. */
export function utcDateTime(instant: number): string {
  const d = new Date(instant);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
}

/** `20270328T023000`: a wall time (local epoch ms) as a local DATE-TIME, read with a TZID. */
export function localDateTime(local: number): string {
  return utcDateTime(local).slice(0, -1);
}

/** `+0200`, `-0330`, `+1030`: a UTC offset (ms) as RFC 5545's UTC-OFFSET (seconds only when there are some). */
export function utcOffset(offset: number): string {
  const total = Math.round(Math.abs(offset) / 1000);
  const seconds = total % 60;
  const text = `${offset < 0 ? "-" : "+"}${pad(Math.floor(total / 3600))}${pad(Math.floor(total / 60) % 60)}`;
  return seconds === 0 ? text : `${text}${pad(seconds)}`;
}

/** `PT0S`, `-PT15M`, `-P1DT2H`: a span in seconds as a DURATION (negative: before). */
export function duration(seconds: number): string {
  const sign = seconds < 0 ? "-" : "";
  let rest = Math.abs(Math.round(seconds));
  if (rest === 0) return "PT0S";
  const days = Math.floor(rest / 86_400);
  rest -= days * 86_400;
  const time = [
    [Math.floor(rest / 3600), "H"],
    [Math.floor(rest / 60) % 60, "M"],
    [rest % 60, "S"],
  ]
    .filter(([n]) => n !== 0)
    .map(([n, unit]) => `${n}${unit}`)
    .join("");
  return `${sign}P${days > 0 ? `${days}D` : ""}${time === "" ? "" : `T${time}`}`;
}
