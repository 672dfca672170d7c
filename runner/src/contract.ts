/**
 * @module The runner's wire contract (docs/watchers.md), defined once for both sides: the body of `POST /runs` and
 * its validator, the outcome and its validator, the `X-Cuckoo-Signature` scheme (v2: sign and verify), and
 * the limits each side holds the other to.
 *
 * It is the one file of `runner/` that the Worker imports (STYLE: `src/` imports nothing of the runner but
 * this), through `src/contracts/runner.ts`, and the runner imports it as any of its own modules. So it
 * imports nothing, uses only what Node 22 and workerd both have (WebCrypto's `crypto.subtle`, TextEncoder,
 * Intl, URL; no Buffer, no node:*), and is written in erasable TypeScript only: Node runs it as it is (type
 * stripping) inside the runner's image, which builds from `runner/` alone.
 */

// ---------------------------------------------------------------------------------------------------------
// Limits

/** A run id is an opaque string of 1 to this many characters. */
export const MAX_RUN_ID_LENGTH = 200;
/** A Telegram chat id (docs/api.md, docs/watchers.md); also what keeps a workspace path one plain segment. */
export const CHAT_ID = /^-?[1-9]\d{0,15}$/;
/** The job id of a run request: 1 to 64 letters, digits, `-` or `_` (the Worker's are 5 characters, or "test"). */
const JOB_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** The longest command, in characters. */
export const MAX_COMMAND_LENGTH = 8000;
/** `timeoutSeconds` is a whole number from MIN to MAX. */
export const MIN_TIMEOUT_SECONDS = 1;
export const MAX_TIMEOUT_SECONDS = 3600;
/** A dry run (`POST /runs?wait=1`) runs at most this long, whatever its timeoutSeconds. */
export const DRY_RUN_MAX_SECONDS = 60;
/** Between SIGTERM and SIGKILL to a run's process group, on timeout or cancel. */
export const KILL_GRACE_SECONDS = 5;
/** Of each stream the first HEAD_BYTES and the last TAIL_BYTES are kept. */
export const HEAD_BYTES = 48 * 1024;
export const TAIL_BYTES = 16 * 1024;
/** How many lines of stderr an outcome carries. */
export const STDERR_TAIL_LINES = 20;
/**
 * The largest stdin the Worker sends, measured as the JSON-encoded size of the string: the length in UTF-8
 * bytes of `JSON.stringify(stdin)`, quotes and escapes included. The runner refuses a larger one (400).
 */
export const MAX_STDIN_BYTES = 48 * 1024;
/**
 * The largest body the runner takes (`POST /runs`), in bytes; more gets 413. Room for a stdin of
 * MAX_STDIN_BYTES beside a command of MAX_COMMAND_LENGTH characters, however JSON escapes it.
 */
export const MAX_REQUEST_BYTES = 128 * 1024;
/**
 * The largest callback body the Worker takes, in bytes. An outcome holds up to 64 KiB of stdout and a stderr
 * tail of at most 64 KiB; JSON writes a control character as six bytes, so both together can reach about
 * 770 KiB.
 */
export const MAX_CALLBACK_BYTES = 1024 * 1024;
/** A signature whose `t` is further than this from the receiver's clock, either way, is refused. */
export const SIGNATURE_WINDOW_SECONDS = 300;
/** The runner refuses an ended run's id (409) this long after it ended: the signature window + the longest timeout. */
export const FORGET_AFTER_SECONDS = SIGNATURE_WINDOW_SECONDS + MAX_TIMEOUT_SECONDS;

// ---------------------------------------------------------------------------------------------------------
// Shapes

/** The body of `POST /runs`. */
export interface RunRequest {
  runId: string;
  chatId: string;
  jobId: string;
  command: string;
  timeoutSeconds: number;
  timeZone: string;
  callbackUrl?: string;
  /** Written (UTF-8) to the script's standard input, which is then closed; absent: stdin is closed from the start. */
  stdin?: string;
}

/** `silent`: exit 0 and stdout empty once trimmed; `output`: exit 0 with output; `failed`: anything else. */
export type RunStatus = "silent" | "output" | "failed";

/** What a run came to: POSTed to `callbackUrl`, or the answer of a dry run. */
export interface RunnerOutcome {
  runId: string;
  chatId: string;
  status: RunStatus;
  /** The exit status; null when it timed out, was cancelled or never started. */
  exitCode: number | null;
  timedOut: boolean;
  /** As the script printed it (head + marker + tail when truncated). */
  stdout: string;
  stderrTail: string;
  truncated: { stdout: boolean; stderr: boolean };
  /** ISO 8601 instants. */
  startedAt: string;
  finishedAt: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

// ---------------------------------------------------------------------------------------------------------
// The request

const REQUEST_FIELDS = ["runId", "chatId", "jobId", "command", "timeoutSeconds", "timeZone", "callbackUrl", "stdin"];

const REQUEST_MESSAGES = {
  body: 'The body must be a JSON object such as {"runId":"r1","chatId":"123456789","jobId":"k7m2q","command":"echo hi","timeoutSeconds":60,"timeZone":"Europe/Berlin"}.',
  runId: `runId must be a string of 1 to ${MAX_RUN_ID_LENGTH} characters, such as "123456789:k7m2q:1767225600000".`,
  chatId: 'chatId must be a Telegram chat id written as a string, such as "123456789" or "-1001234567890".',
  jobId: 'jobId must be a string of 1 to 64 letters, digits, "-" or "_", such as "k7m2q".',
  command: `command must be a shell command of 1 to ${MAX_COMMAND_LENGTH} characters without NUL characters, such as "echo hi".`,
  timeoutSeconds: `timeoutSeconds must be a whole number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS}, such as 60.`,
  timeZone: 'timeZone must be an IANA time zone name, such as "Europe/Berlin" or "UTC".',
  callbackUrl: 'callbackUrl must be an http or https URL, such as "http://127.0.0.1:8787/runner/callback/123456789", or left out.',
  stdin: `stdin must be a string of at most ${MAX_STDIN_BYTES} bytes once written as JSON in UTF-8, such as "line 1\\nline 2\\n", or left out.`,
};

/**
 * Parses the raw body of `POST /runs`, field by field (the runner has no dependencies, so no zod): every
 * problem is one sentence naming the field and showing an accepted form, the first one found is reported,
 * and unknown fields are refused. The zone comes back as `canonicalZone` spells it.
 */
export function parseRunRequest(raw: string): Parsed<RunRequest> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { ok: false, message: REQUEST_MESSAGES.body };
  }
  if (!isObject(body)) return { ok: false, message: REQUEST_MESSAGES.body };
  const unknown = Object.keys(body).find((key) => !REQUEST_FIELDS.includes(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      message: `Unknown field ${JSON.stringify(unknown)}; the accepted fields are runId, chatId, jobId, command, timeoutSeconds, timeZone, callbackUrl and stdin.`,
    };
  }
  const { runId, chatId, jobId, command, timeoutSeconds, timeZone, callbackUrl, stdin } = body;
  const fail = (field: keyof typeof REQUEST_MESSAGES): Parsed<RunRequest> => ({ ok: false, message: REQUEST_MESSAGES[field] });
  if (!isRunId(runId)) return fail("runId");
  if (typeof chatId !== "string" || !CHAT_ID.test(chatId)) return fail("chatId");
  if (typeof jobId !== "string" || !JOB_ID.test(jobId)) return fail("jobId");
  if (typeof command !== "string" || command.length < 1 || command.length > MAX_COMMAND_LENGTH || command.includes("\0")) {
    return fail("command");
  }
  if (typeof timeoutSeconds !== "number" || !Number.isInteger(timeoutSeconds) || timeoutSeconds < MIN_TIMEOUT_SECONDS || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
    return fail("timeoutSeconds");
  }
  if (typeof timeZone !== "string") return fail("timeZone");
  const zone = canonicalZone(timeZone);
  if (zone === null) {
    return {
      ok: false,
      message: `timeZone ${JSON.stringify(timeZone)} is not an IANA time zone this runner knows; use one such as "Europe/Berlin" or "UTC".`,
    };
  }
  if (callbackUrl !== undefined && (typeof callbackUrl !== "string" || !isHttpUrl(callbackUrl))) return fail("callbackUrl");
  if (stdin !== undefined && (typeof stdin !== "string" || jsonBytes(stdin) > MAX_STDIN_BYTES)) return fail("stdin");
  const value: RunRequest = { runId, chatId, jobId, command, timeoutSeconds, timeZone: zone };
  if (callbackUrl !== undefined) value.callbackUrl = callbackUrl;
  if (stdin !== undefined) value.stdin = stdin;
  return { ok: true, value };
}

/** The `wait` query parameter: absent or "0" for a callback run, "1" for a dry run answered directly. */
export function parseWait(value: string | null): Parsed<boolean> {
  if (value === null || value === "0") return { ok: true, value: false };
  if (value === "1") return { ok: true, value: true };
  return { ok: false, message: "wait must be 1 (answer with the outcome) or left out." };
}

/**
 * The zone as the script's TZ should name it, or null when Intl does not know it. Intl matches names in any
 * case but the C library's zone files do not, so a name Intl spells differently only in case is replaced by
 * Intl's spelling; other names (aliases such as "Asia/Calcutta") are kept as given.
 */
export function canonicalZone(name: string): string | null {
  if (name === "" || name.length > 64 || !/^[A-Za-z0-9_+\-/]+$/.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

// ---------------------------------------------------------------------------------------------------------
// The outcome

const OUTCOME_FIELDS = "{ runId, chatId, status, exitCode, timedOut, stdout, stderrTail, truncated: { stdout, stderr }, startedAt, finishedAt }";

/**
 * Checks a parsed JSON value against the outcome: the same rules as the Worker's zod schema
 * (`src/contracts/runner.ts`; a test runs both over the same cases). Fields a newer runner may add are
 * dropped, not refused.
 */
export function parseOutcome(value: unknown): Parsed<RunnerOutcome> {
  const fail = (field: string, rule: string): Parsed<RunnerOutcome> => ({
    ok: false,
    message: `The outcome's ${field} must be ${rule}; an outcome is ${OUTCOME_FIELDS}.`,
  });
  if (!isObject(value)) return { ok: false, message: `The outcome must be a JSON object ${OUTCOME_FIELDS}.` };
  const { runId, chatId, status, exitCode, timedOut, stdout, stderrTail, truncated, startedAt, finishedAt } = value;
  if (!isRunId(runId)) return fail("runId", `a string of 1 to ${MAX_RUN_ID_LENGTH} characters`);
  if (typeof chatId !== "string" || !CHAT_ID.test(chatId)) return fail("chatId", "a Telegram chat id written as a string");
  if (status !== "silent" && status !== "output" && status !== "failed") return fail("status", '"silent", "output" or "failed"');
  if (exitCode !== null && !Number.isSafeInteger(exitCode)) return fail("exitCode", "a whole number or null");
  if (typeof timedOut !== "boolean") return fail("timedOut", "true or false");
  if (typeof stdout !== "string") return fail("stdout", "a string");
  if (typeof stderrTail !== "string") return fail("stderrTail", "a string");
  if (!isObject(truncated) || typeof truncated.stdout !== "boolean" || typeof truncated.stderr !== "boolean") {
    return fail("truncated", "{ stdout: true or false, stderr: true or false }");
  }
  if (typeof startedAt !== "string") return fail("startedAt", "a string");
  if (typeof finishedAt !== "string") return fail("finishedAt", "a string");
  return {
    ok: true,
    value: {
      runId,
      chatId,
      status,
      exitCode: exitCode as number | null,
      timedOut,
      stdout,
      stderrTail,
      truncated: { stdout: truncated.stdout, stderr: truncated.stderr },
      startedAt,
      finishedAt,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRunId(value: unknown): value is string {
  return typeof value === "string" && value.length >= 1 && value.length <= MAX_RUN_ID_LENGTH;
}

/** The size of `text` written as JSON (`JSON.stringify`, quotes and escapes included), in UTF-8 bytes. */
export function jsonBytes(text: string): number {
  return new TextEncoder().encode(JSON.stringify(text)).length;
}

function isHttpUrl(text: string): boolean {
  if (text.length > 2048) return false;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// The signature

/**
 * The header every request but `GET /healthz` carries, both ways: `t=<unix seconds>,v2=<hex HMAC-SHA256 of
 * "<t>.<METHOD> <target>.<raw body>" with RUNNER_SECRET>`. Header names are case-insensitive (Node's
 * `req.headers` has it lower-cased).
 */
export const SIGNATURE_HEADER = "X-Cuckoo-Signature";

/** What a signature covers besides `t`: the method, the request target and the raw body. */
export interface SignedRequest {
  /** As sent; signed upper-cased. */
  method: string;
  /**
   * The path and query exactly as sent, percent-encoding kept, such as `/runs/123%3Ak7m2q%3A1767225600000`
   * or `/runs?wait=1`: Node's `req.url` on the receiving side, `signingTarget(url)` on the sending side.
   */
  target: string;
  /** The raw body; "" (or no bytes) for a request without one. */
  body: string | Uint8Array;
}

/** The request target that `fetch(url)` sends: the path and query of `url`. */
export function signingTarget(url: string | URL): string {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return `${parsed.pathname}${parsed.search}`;
}

/** The bytes a v2 signature covers: `"<t>.<METHOD> <target>.<raw body>"`. */
export function signedBytes(t: number, request: SignedRequest): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const head = encoder.encode(`${t}.${request.method.toUpperCase()} ${request.target}.`);
  const body = typeof request.body === "string" ? encoder.encode(request.body) : request.body;
  const bytes = new Uint8Array(head.length + body.length);
  bytes.set(head, 0);
  bytes.set(body, head.length);
  return bytes;
}

function importHmacKey(secret: string) {
  return crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

/** Imported keys by secret: importing costs more than the HMAC itself, and a process holds one secret. */
const keys = new Map<string, ReturnType<typeof importHmacKey>>();

function hmacKey(secret: string): ReturnType<typeof importHmacKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    key = importHmacKey(secret);
    if (keys.size >= 8) keys.clear();
    keys.set(secret, key);
  }
  return key;
}

/** The hex HMAC-SHA256 of `signedBytes(t, request)` with `secret`. */
export async function sign(secret: string, t: number, request: SignedRequest): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(secret), signedBytes(t, request)));
  let hex = "";
  for (const byte of mac) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The whole header value for `request` signed at `nowSeconds` (floored): `t=<seconds>,v2=<hex>`. */
export async function signatureHeader(secret: string, request: SignedRequest, nowSeconds: number): Promise<string> {
  const t = Math.floor(nowSeconds);
  return `t=${t},v2=${await sign(secret, t, request)}`;
}

/** Why a signature was refused; each maps to one 401 sentence. */
export type SignatureProblem = "missing" | "malformed" | "v1" | "stale" | "mismatch";

export type Verification = { ok: true; t: number } | { ok: false; problem: SignatureProblem };

const V2_FORM = /^t=(\d{1,12}),v2=([0-9a-fA-F]{64})$/;
/** The scheme before the method and target were signed: refused, but named so an operator sees why. */
const V1_FORM = /^t=\d{1,12},v1=[0-9a-fA-F]{64}$/;

/**
 * Checks a header value against the request at `nowSeconds`. The timestamp is public, so it is checked
 * first; the MAC with `crypto.subtle.verify`, which compares in constant time.
 */
export async function verify(secret: string, header: string | null | undefined, request: SignedRequest, nowSeconds: number): Promise<Verification> {
  const value = (header ?? "").trim();
  if (value === "") return { ok: false, problem: "missing" };
  const match = V2_FORM.exec(value);
  if (!match) return { ok: false, problem: V1_FORM.test(value) ? "v1" : "malformed" };
  const t = Number(match[1]);
  if (Math.abs(nowSeconds - t) > SIGNATURE_WINDOW_SECONDS) return { ok: false, problem: "stale" };
  const hex = match[2] ?? "";
  const mac = new Uint8Array(32);
  for (let i = 0; i < 32; i++) mac[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(secret), mac, signedBytes(t, request));
  return valid ? { ok: true, t } : { ok: false, problem: "mismatch" };
}

/** The one sentence the runner's 401 carries for each problem. */
export const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  missing:
    'The X-Cuckoo-Signature header is missing; sign each request as t=<unix seconds>,v2=<hex HMAC-SHA256 of "<t>.<METHOD> <target>.<body>" with RUNNER_SECRET>.',
  malformed: "The X-Cuckoo-Signature header must look like t=<unix seconds>,v2=<64 hex digits>.",
  v1: 'The X-Cuckoo-Signature v1 (the body alone) is no longer accepted; sign v2, "<t>.<METHOD> <target>.<body>", as a runner and Worker of the same version do.',
  stale: `The X-Cuckoo-Signature timestamp is more than ${SIGNATURE_WINDOW_SECONDS} s off the runner's clock; sign with the current unix time.`,
  mismatch: 'The X-Cuckoo-Signature does not match the request; sign "<t>.<METHOD> <target>.<body>" with the RUNNER_SECRET the runner was started with.',
};
