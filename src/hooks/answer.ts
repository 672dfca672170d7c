/**
 * @module What a hook call hands the chat's object and what it answers (docs/hooks.md), shared by the HTTP route, the
 * email handler and the object: the call's input, its key, and how it came; accepted with its run id, or refused with
 * the code the edge answers (404, 409, 429 with `Retry-After`).
 */
import type { RunVia } from "./input";

/** The one sentence of every `/hooks/…` path, and every mail, that names no hook (never the token). */
export const NO_HOOK = "No hook at this address.";

/** A call as the object takes it: its input as text, the key that makes a repeat run nothing (null: none), how it came. */
export type HookCallInput = { text: string; key: string | null; via: RunVia };

/** Why a call was refused; `retryAfter` in seconds, with `rate_limited`. */
export type HookReject = { code: "not_found" | "conflict" | "rate_limited"; message: string; retryAfter?: number };

/** Accepted (`replayed`: a key seen within 24 hours, its first run's id, nothing run), or refused. */
export type HookAnswer = { ok: true; value: { runId: string; replayed: boolean } } | { ok: false; error: HookReject };
