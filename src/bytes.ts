/**
 * @module Byte limits: reading a body stream with one (the helper the HTTP edge, for request bodies, and the
 * runner client, for callbacks, share), and cutting a text to one with a marked end (what a model turn keeps,
 * docs/agent.md), and a text's SHA-256 in hex. Pure Web APIs, no framework, so any part can use them without
 * importing another.
 */

/** A text's SHA-256 (of its UTF-8 bytes) in lowercase hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A text's size in UTF-8 bytes. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/**
 * `text` if it takes at most `maxBytes` in UTF-8, else its longest prefix that fits with `mark` after it
 * (never half a character: `encodeInto` writes whole code points only).
 */
export function cutToBytes(text: string, maxBytes: number, mark: string): string {
  const encoder = new TextEncoder();
  // A UTF-16 unit takes at most 3 bytes: a text this short fits without encoding it.
  if (text.length * 3 <= maxBytes) return text;
  const whole = encoder.encode(text);
  if (whole.byteLength <= maxBytes) return text;
  const room = new Uint8Array(Math.max(0, maxBytes - encoder.encode(mark).byteLength));
  const { read } = encoder.encodeInto(text, room);
  return text.slice(0, read) + mark;
}

/**
 * A body stream read to its end, or null as soon as it passes `limit` bytes (the rest is not read). Throws
 * only when the stream itself fails.
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | null> {
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
