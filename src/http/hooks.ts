/**
 * @module The door the world knocks on (docs/hooks.md): `POST /hooks/<token>` runs the job whose hook has the token,
 * with the body as its input. No bearer token: the token in the path is the secret, so every `/hooks/…` path that
 * names no hook answers the same sentence, and nothing of the path or the body reaches a log. The hook's chat is
 * found by the token's hash in the D1 directory; the chat's object checks the hash again and decides.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { readLimited } from "../bytes";
import { printable } from "../contracts/ids";
import { chatOfHook } from "../directory/hooks";
import { type HookAnswer, type HookCallInput, NO_HOOK } from "../hooks/answer";
import { HOOK_TOKEN, hookAddresses, hookHash } from "../hooks/token";
import { MAX_BODY_BYTES } from "./body";
import type { AppEnv } from "./context";
import { ApiError, errorResponse } from "./errors";
import type { Operation } from "./openapi-components";

/** The largest body a hook takes (docs/hooks.md): the edge's one limit. */
const MAX_HOOK_BYTES = MAX_BODY_BYTES;
/** The longest `Idempotency-Key` or `X-GitHub-Delivery` taken. */
const MAX_KEY_LENGTH = 200;

export const hooks = new Hono<AppEnv>();

/** Where the world reaches this Worker: PUBLIC_URL when it is set, else the origin the request came to. */
export function publicOrigin(c: Context<AppEnv>): string {
  return (c.var.config.runner.publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, "");
}

/** A hook's URL and address for a token, on `publicOrigin`. */
export function hookOf(c: Context<AppEnv>, token: string): { url: string; email: string | null } {
  return hookAddresses(token, publicOrigin(c), c.var.config.emailDomain);
}

const noHook = (c: Context<AppEnv>) => errorResponse(c, "not_found", NO_HOOK);

hooks.post("/:token", async (c) => {
  const token = c.req.param("token");
  if (!HOOK_TOKEN.test(token)) return noHook(c);
  const hash = await hookHash(token);
  const chatId = await chatOfHook(c.env.DB, hash);
  if (chatId === null) return noHook(c);
  const input = await callInput(c);
  const answer: HookAnswer = await c.env.CHAT.getByName(chatId).hookCall(chatId, hash, input);
  if (answer.ok) return c.json({ accepted: true, runId: answer.value.runId }, 202);
  const { code, message, retryAfter } = answer.error;
  if (code === "not_found") return noHook(c);
  return errorResponse(c, code, message, retryAfter === undefined ? {} : { "Retry-After": String(retryAfter) });
});

// Any other method, or a path that is no token: the same answer as an unknown token.
hooks.all("*", noHook);

/** Whether a Content-Type is JSON (`application/json`, `application/*+json`) or text (`text/*`). */
function kindOf(contentType: string): "json" | "text" | null {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"))) return "json";
  return type.startsWith("text/") ? "text" : null;
}

/**
 * The call's input: the body as text (JSON checked to be JSON), at most 64 KiB, and its key: `Idempotency-Key`, or
 * GitHub's `X-GitHub-Delivery`, so that a delivery GitHub retries runs once.
 */
async function callInput(c: Context<AppEnv>): Promise<HookCallInput> {
  const kind = kindOf(c.req.header("Content-Type") ?? "");
  if (kind === null) throw new ApiError("unsupported_media_type", "A hook takes JSON or text: send the body with Content-Type application/json or text/plain.");
  const length = Number(c.req.header("Content-Length") ?? "0");
  const tooLarge = `The body is larger than ${MAX_HOOK_BYTES / 1024} KiB, the most a hook takes.`;
  if (length > MAX_HOOK_BYTES) throw new ApiError("payload_too_large", tooLarge);
  const bytes = await readLimited(c.req.raw.body, MAX_HOOK_BYTES);
  if (bytes === null) throw new ApiError("payload_too_large", tooLarge);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("bad_request", "The body must be UTF-8 text.");
  }
  if (kind === "json" && text.trim() !== "") {
    try {
      JSON.parse(text);
    } catch {
      throw new ApiError("bad_request", "The body is not valid JSON; send JSON with Content-Type application/json, or text with text/plain.");
    }
  }
  const key = c.req.header("Idempotency-Key") ?? c.req.header("X-GitHub-Delivery") ?? null;
  if (key !== null && (key.length === 0 || key.length > MAX_KEY_LENGTH || printable(key) !== key))
    throw new ApiError("bad_request", `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} printable characters, such as a UUID.`);
  return { text, key, via: "hook" };
}

/** What the OpenAPI document says of the hook route. */
export const hookOperations = (): Operation[] => [
  {
    method: "post",
    path: "/hooks/{token}",
    summary: "Run the job whose hook has this token, with the body as its input (docs/hooks.md).",
    description:
      "No bearer token: the token is the secret. The body (JSON or text, at most 64 KiB) is the run's input: a prompt job's prompt carries it " +
      "under a line saying it came from the hook; a watcher's script reads it on stdin and decides, silent or not. A run's input is its first " +
      "48 KiB (JSON-encoded size), cut at a line end and marked `[input cut: <size> in all]`. The same `Idempotency-Key` (or `X-GitHub-Delivery`) " +
      "within 24 h answers the first call's run id again and runs nothing. While a run of the job is in flight a call waits its turn (at most 20). " +
      "At most 60 calls an hour per hook.",
    access: "public",
    anyBody: true,
    answers: [[202, "Accepted: the run it makes.", "HookAccepted"]],
    errors: {
      bad_request: "a JSON body that is not JSON, a body that is not UTF-8, or an Idempotency-Key over 200 characters",
      not_found: "no hook has this token, or it was revoked (`No hook at this address.`, the same for every /hooks/… path)",
      conflict: "the job is paused (`Job <id> is paused.`)",
      unsupported_media_type: "a Content-Type other than JSON (application/json, application/*+json) or text (text/*)",
      rate_limited: "60 calls in the last hour, or 20 calls already waiting for the job's run in flight; `Retry-After` says when to try again",
    },
  },
];
