/**
 * @module The runner's request signature (DESIGN §8), on the Worker's side: `X-Cuckoo-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` with RUNNER_SECRET, accepted within 300 s and
 * compared in constant time. The runner (runner/src/signature.ts) implements the same with node:crypto; a
 * unit test signs with one and verifies with the other.
 */

export const SIGNATURE_HEADER = "X-Cuckoo-Signature";
/** A signature whose `t` is further than this from now is refused. */
export const SIGNATURE_WINDOW_SECONDS = 300;

const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    if (keys.size > 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The hex HMAC of `"<t>.<body>"`. */
export async function sign(secret: string, t: number, body: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret), new TextEncoder().encode(`${t}.${body}`));
  return hex(mac);
}

/** The header value for `body` signed at `nowMs`. */
export async function signatureHeader(secret: string, body: string, nowMs: number = Date.now()): Promise<string> {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${await sign(secret, t, body)}`;
}

/**
 * Whether `header` signs `body` with `secret` within the window around `nowMs`. The MAC is checked with
 * `crypto.subtle.verify`, which compares in constant time.
 */
export async function verifySignature(secret: string, header: string | null | undefined, body: string, nowMs: number = Date.now()): Promise<boolean> {
  const match = /^t=(\d{1,12}),v1=([0-9a-fA-F]{64})$/.exec((header ?? "").trim());
  if (!match) return false;
  const t = Number(match[1]);
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_WINDOW_SECONDS) return false;
  const mac = new Uint8Array(32);
  for (let i = 0; i < 32; i++) mac[i] = parseInt(match[2]!.slice(i * 2, i * 2 + 2), 16);
  return crypto.subtle.verify("HMAC", await hmacKey(secret), mac, new TextEncoder().encode(`${t}.${body}`));
}
