/**
 * @module Signed tokens, the one form of the page's and the Mini App's sessions (docs/api.md):
 * `<fields>.<expiry>.<nonce>.<mac>`, the expiry in Unix seconds, the nonce 16 random bytes, the MAC an
 * HMAC-SHA256 of everything before it with the caller's key (both in base64url). Nothing is stored: a token is
 * good while its MAC matches (compared by WebCrypto's `verify`) and its expiry is ahead of now.
 */

const encoder = new TextEncoder();
const TOKEN = /^(.+)\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

/** Bytes as base64url without padding. */
const b64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");

/** The bytes of a base64url text, or null. */
function fromB64url(text: string): Uint8Array | null {
  try {
    const raw = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return Uint8Array.from(raw, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** An HMAC-SHA256 key of `secret` (a text's UTF-8 bytes, or raw bytes) that signs and verifies tokens. */
export function tokenKey(secret: string | ArrayBuffer): Promise<CryptoKey> {
  const raw = typeof secret === "string" ? encoder.encode(secret) : secret;
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** A token of `fields` (the caller's form, such as `v1`) that ends at `expiresAt` (Unix seconds). */
export async function signToken(key: CryptoKey, fields: string, expiresAt: number): Promise<string> {
  const payload = `${fields}.${expiresAt}.${b64url(crypto.getRandomValues(new Uint8Array(16)))}`;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(payload)));
  return `${payload}.${b64url(mac)}`;
}

/**
 * A token signed with `key` whose fields match `form` (anchored) and whose expiry is after `now` (epoch ms):
 * the match of its fields and its expiry in epoch ms. Null for anything else.
 */
export async function openToken(key: CryptoKey, value: string, form: RegExp, now: number): Promise<{ fields: RegExpExecArray; expiresAt: number } | null> {
  const m = TOKEN.exec(value);
  const fields = m ? form.exec(m[1]!) : null;
  if (!m || !fields || fields[0] !== m[1]) return null;
  const mac = fromB64url(m[4]!);
  if (mac === null) return null;
  const valid = await crypto.subtle.verify("HMAC", key, mac, encoder.encode(`${m[1]}.${m[2]}.${m[3]}`));
  const expiresAt = Number(m[2]) * 1000;
  return valid && expiresAt > now ? { fields, expiresAt } : null;
}
