/**
 * @module Bounded capture of one output stream: the first 48 KiB and the last 16 KiB (a ring buffer), with
 * a one-line marker between them saying how many bytes were left out. Two fixed buffers per stream, so the
 * runner's memory stays the same whatever a script prints. The sizes are the contract's (contract.ts).
 */
import { HEAD_BYTES, TAIL_BYTES } from "./contract.ts";

/** The line between the head and the tail of a truncated stream. */
export function omittedMarker(bytes: number): string {
  return `\n[... ${bytes} bytes omitted ...]\n`;
}

export interface Captured {
  /** What was kept, as UTF-8 text: the whole stream, or head + marker + tail. */
  text: string;
  truncated: boolean;
}

/** Collects one stream. `write` each chunk as it arrives; `result` once it has ended. */
export class HeadTailCapture {
  readonly #head = Buffer.alloc(HEAD_BYTES);
  #headLength = 0;
  readonly #tail = Buffer.alloc(TAIL_BYTES);
  /** Where the next tail byte goes; once the ring is full, also where its oldest byte is. */
  #tailNext = 0;
  #tailLength = 0;
  #total = 0;

  write(chunk: Uint8Array): void {
    this.#total += chunk.length;
    let offset = 0;
    if (this.#headLength < HEAD_BYTES) {
      offset = Math.min(HEAD_BYTES - this.#headLength, chunk.length);
      this.#head.set(chunk.subarray(0, offset), this.#headLength);
      this.#headLength += offset;
    }
    if (offset < chunk.length) this.#pushTail(chunk.subarray(offset));
  }

  #pushTail(data: Uint8Array): void {
    if (data.length >= TAIL_BYTES) {
      this.#tail.set(data.subarray(data.length - TAIL_BYTES));
      this.#tailNext = 0;
      this.#tailLength = TAIL_BYTES;
      return;
    }
    const first = Math.min(TAIL_BYTES - this.#tailNext, data.length);
    this.#tail.set(data.subarray(0, first), this.#tailNext);
    this.#tail.set(data.subarray(first), 0);
    this.#tailNext = (this.#tailNext + data.length) % TAIL_BYTES;
    this.#tailLength = Math.min(TAIL_BYTES, this.#tailLength + data.length);
  }

  /** The tail bytes, oldest first. */
  #tailBytes(): Buffer {
    if (this.#tailLength < TAIL_BYTES) return this.#tail.subarray(0, this.#tailLength);
    return Buffer.concat([this.#tail.subarray(this.#tailNext), this.#tail.subarray(0, this.#tailNext)]);
  }

  result(): Captured {
    const head = this.#head.subarray(0, this.#headLength);
    const tail = this.#tailBytes();
    if (this.#total <= HEAD_BYTES + TAIL_BYTES) {
      return { text: Buffer.concat([head, tail]).toString("utf8"), truncated: false };
    }
    // Cut on character boundaries so neither side ends in a broken UTF-8 sequence; the bytes dropped there
    // are counted as omitted.
    const keptHead = head.subarray(0, utf8End(head));
    const keptTail = tail.subarray(utf8Start(tail));
    const omitted = this.#total - keptHead.length - keptTail.length;
    return {
      text: keptHead.toString("utf8") + omittedMarker(omitted) + keptTail.toString("utf8"),
      truncated: true,
    };
  }
}

/** The length of `bytes` without an incomplete multi-byte sequence at its end. */
function utf8End(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: keep looking for its lead
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** How many continuation bytes (the rest of a character cut off before) `bytes` starts with, at most 3. */
function utf8Start(bytes: Uint8Array): number {
  let start = 0;
  while (start < 3 && start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return start;
}

/** The last `count` lines of `text`, without the newlines that end it. */
export function lastLines(text: string, count: number): string {
  const lines = text.replace(/\n+$/, "").split("\n");
  return lines.slice(Math.max(0, lines.length - count)).join("\n");
}
