/**
 * @module The X-Cuckoo-Signature scheme (DESIGN §8), both ways: the runner verifies every request but
 * `GET /healthz`, and signs its callbacks the same way. `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw
 * body>">` with RUNNER_SECRET; a request without a body signs `"<t>."`.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The header that carries the signature, as Node lower-cases it. */
export const SIGNATURE_HEADER = "x-cuckoo-signature";

/** How far `t` may be from the runner's clock, either way, in seconds. */
export const TOLERANCE_SECONDS = 300;

/** The hex HMAC-SHA256 of `"<t>.<body>"` with `secret`. */
export function sign(secret: string, t: number, body: string | Uint8Array): string {
  return createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");
}

/** The whole header value for `body` signed at `nowSeconds`: `t=<nowSeconds>,v1=<hex>`. */
export function signatureHeader(secret: string, body: string | Uint8Array, nowSeconds: number): string {
  const t = Math.floor(nowSeconds);
  return `t=${t},v1=${sign(secret, t, body)}`;
}

/** Why a signature was refused; each maps to one 401 sentence. */
export type SignatureProblem = "missing" | "malformed" | "stale" | "mismatch";

export type Verification = { ok: true; t: number } | { ok: false; problem: SignatureProblem };

const HEADER_FORM = /^t=(\d{1,12}),v1=([0-9a-fA-F]{64})$/;

/**
 * Checks a header value against the raw body at `nowSeconds`. The digests are compared in constant time
 * (timingSafeEqual on two 32-byte buffers); the timestamp is public, so it is checked first.
 */
export function verify(
  secret: string,
  header: string | undefined,
  body: string | Uint8Array,
  nowSeconds: number,
): Verification {
  if (header === undefined || header === "") return { ok: false, problem: "missing" };
  const match = HEADER_FORM.exec(header.trim());
  if (!match) return { ok: false, problem: "malformed" };
  const t = Number(match[1]);
  if (Math.abs(nowSeconds - t) > TOLERANCE_SECONDS) return { ok: false, problem: "stale" };
  const expected = Buffer.from(sign(secret, t, body), "hex");
  const given = Buffer.from(match[2] ?? "", "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: "mismatch" };
  return { ok: true, t };
}

/** The one sentence a 401 carries for each problem. */
export const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  missing:
    'The X-Cuckoo-Signature header is missing; sign each request as t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with RUNNER_SECRET>.',
  malformed: "The X-Cuckoo-Signature header must look like t=<unix seconds>,v1=<64 hex digits>.",
  stale: `The X-Cuckoo-Signature timestamp is more than ${TOLERANCE_SECONDS} s off the runner's clock; sign with the current unix time.`,
  mismatch: 'The X-Cuckoo-Signature does not match the body; sign "<t>.<body>" with the RUNNER_SECRET the runner was started with.',
};
