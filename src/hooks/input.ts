/**
 * @module What a hook hands its run (docs/hooks.md): the input, cut to what a queue message and a runner request carry
 * (its first 48 KiB, measured as JSON encodes it, cut at a line end and marked), and the lines a prompt job's prompt
 * gets after its text.
 */
import { utf8Bytes } from "../bytes";
import { jsonBytes, MAX_STDIN_BYTES } from "../contracts/runner";

/** What woke a run that its schedule did not: `hook`, a call of the job's hook URL; `email`, a mail to its address. */
export type RunVia = "hook" | "email";

/**
 * A run's input is at most this many bytes once JSON-encoded, quotes included: what the runner takes as `stdin`
 * (its contract measures it so, `jsonBytes`), and so what a prompt's queue message carries too.
 */
export const MAX_INPUT_BYTES = MAX_STDIN_BYTES;
const encodedBytes = jsonBytes;

/** `212 KB`: a size as the cut mark says it. */
function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * The input as a run gets it: whole when it fits in MAX_INPUT_BYTES once JSON-encoded; else its longest start that
 * fits with the mark, cut after its last line end when it has one, and `[input cut: 212 KB in all]` on a line after it.
 */
export function runInput(text: string): string {
  if (text.length * 6 <= MAX_INPUT_BYTES || encodedBytes(text) <= MAX_INPUT_BYTES) return text;
  const mark = `[input cut: ${sizeText(utf8Bytes(text))} in all]`;
  // The mark's line, as JSON writes it inside the same string (its own quotes are the text's).
  const room = MAX_INPUT_BYTES - (encodedBytes(`\n${mark}`) - 2);
  // The longest start that fits: JSON's size grows with every character, so a binary search finds it.
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (encodedBytes(text.slice(0, mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  // Never half a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  const line = text.lastIndexOf("\n", end - 1);
  const head = line > 0 ? text.slice(0, line) : text.slice(0, end);
  return `${head}\n${mark}`;
}

/** The line a prompt job's prompt gets before its hook's input. */
export function inputLine(via: RunVia, empty: boolean): string {
  const how = via === "email" ? "a mail to its address" : "a call of its URL";
  return empty ? `Woken by its hook (${how}), with no input.` : `Woken by its hook (${how}); the input:`;
}

/** A prompt job's text with its hook's input under the line that says where it came from. */
export function withInput(text: string, via: RunVia, input: string): string {
  return input === "" ? `${text}\n\n${inputLine(via, true)}` : `${text}\n\n${inputLine(via, false)}\n${input}`;
}
