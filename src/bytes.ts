/**
 * @module Reading a body stream with a byte limit: the one helper the HTTP edge (request bodies) and the
 * runner client (callbacks) share. Pure Web streams, no framework, so either can use it without importing
 * the other.
 */

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
