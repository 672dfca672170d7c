/**
 * @module The body of `POST /runs`, checked field by field. The runner has no dependencies (its image stays
 * small), so this is a hand-written parser in place of zod; every problem is one sentence naming the field
 * and showing an accepted form, and the first problem found is the one reported.
 */

export interface RunRequest {
  runId: string;
  chatId: string;
  jobId: string;
  command: string;
  timeoutSeconds: number;
  timeZone: string;
  callbackUrl?: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** The chat id pattern of DESIGN §8; also what keeps a workspace path one plain segment. */
export const CHAT_ID = /^-?[1-9]\d{0,15}$/;
const JOB_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_TIMEOUT_SECONDS = 3600;
export const MAX_COMMAND_LENGTH = 8000;

const FIELDS = ["runId", "chatId", "jobId", "command", "timeoutSeconds", "timeZone", "callbackUrl"];

const MESSAGES = {
  body: 'The body must be a JSON object such as {"runId":"r1","chatId":"123456789","jobId":"k7m2q","command":"echo hi","timeoutSeconds":60,"timeZone":"Europe/Berlin"}.',
  runId: 'runId must be a string of 1 to 200 characters, such as "123456789:k7m2q:1767225600000".',
  chatId: 'chatId must be a Telegram chat id written as a string, such as "123456789" or "-1001234567890".',
  jobId: 'jobId must be a string of 1 to 64 letters, digits, "-" or "_", such as "k7m2q".',
  command: `command must be a shell command of 1 to ${MAX_COMMAND_LENGTH} characters without NUL characters, such as "echo hi".`,
  timeoutSeconds: `timeoutSeconds must be a whole number of seconds from 1 to ${MAX_TIMEOUT_SECONDS}, such as 60.`,
  timeZone: 'timeZone must be an IANA time zone name, such as "Europe/Berlin" or "UTC".',
  callbackUrl: 'callbackUrl must be an http or https URL, such as "http://127.0.0.1:8787/runner/callback/123456789", or left out.',
};

/** Parses the raw body of `POST /runs`. */
export function parseRunRequest(raw: string): Parsed<RunRequest> {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return { ok: false, message: MESSAGES.body };
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { ok: false, message: MESSAGES.body };
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !FIELDS.includes(key));
  if (unknown !== undefined) {
    return {
      ok: false,
      message: `Unknown field ${JSON.stringify(unknown)}; the accepted fields are runId, chatId, jobId, command, timeoutSeconds, timeZone and callbackUrl.`,
    };
  }
  const { runId, chatId, jobId, command, timeoutSeconds, timeZone, callbackUrl } = fields;
  const fail = (field: keyof typeof MESSAGES): Parsed<RunRequest> => ({ ok: false, message: MESSAGES[field] });
  if (typeof runId !== "string" || runId.length < 1 || runId.length > 200) return fail("runId");
  if (typeof chatId !== "string" || !CHAT_ID.test(chatId)) return fail("chatId");
  if (typeof jobId !== "string" || !JOB_ID.test(jobId)) return fail("jobId");
  if (typeof command !== "string" || command.length < 1 || command.length > MAX_COMMAND_LENGTH || command.includes("\0")) {
    return fail("command");
  }
  if (typeof timeoutSeconds !== "number" || !Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT_SECONDS) {
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
  const value: RunRequest = { runId, chatId, jobId, command, timeoutSeconds, timeZone: zone };
  if (callbackUrl !== undefined) value.callbackUrl = callbackUrl;
  return { ok: true, value };
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

function isHttpUrl(text: string): boolean {
  if (text.length > 2048) return false;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The `wait` query parameter: absent or "0" for a callback run, "1" for a dry run answered directly. */
export function parseWait(value: string | null): Parsed<boolean> {
  if (value === null || value === "0") return { ok: true, value: false };
  if (value === "1") return { ok: true, value: true };
  return { ok: false, message: "wait must be 1 (answer with the outcome) or left out." };
}
