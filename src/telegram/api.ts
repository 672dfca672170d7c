/**
 * @module The Bot API client (docs/telegram.md): one POST per method to `${TELEGRAM_API_BASE}/bot<token>/<method>`,
 * typed by method with @grammyjs/types' `ApiMethods`, and never waiting longer than its time limit: JSON for
 * every method, and multipart/form-data for the one file the bot uploads, a long reply as a Markdown document
 * (`sendDocument`). Two kinds of failure, as grammY has them: the remote said no (`TelegramError`, with
 * Telegram's code, description and `retry_after`, and a group's new supergroup id when it moved), or the
 * network failed or took too long (`NetworkError`). The token never appears in errors.
 */
import type { ApiMethods } from "@grammyjs/types";

/** The Bot API's methods, typed (a file is uploaded only by `sendDocument` below, outside these types). */
type Methods = ApiMethods<never>;
export type MethodName = keyof Methods;
export type ParamsOf<M extends MethodName> = Parameters<Methods[M]>[0];
export type ResultOf<M extends MethodName> = ReturnType<Methods[M]>;

/** How long one Bot API call may take before it counts as a network error: Telegram answers in well under 1 s. */
export const BOT_API_TIMEOUT_MS = 10_000;

/** What Telegram answered when it said no: its error code and description, and the parameters we act on. */
type Refusal = { code: number; description: string; retryAfter?: number | null; migrateTo?: string | null };

export class TelegramError extends Error {
  readonly code: number;
  readonly description: string;
  /** Seconds to wait before the next call (a 429's `retry_after`). */
  readonly retryAfter: number | null;
  /** A basic group's send answered "group chat was upgraded to a supergroup chat": the supergroup's id. */
  readonly migrateTo: string | null;

  constructor(
    readonly method: string,
    refusal: Refusal,
  ) {
    super(`Telegram ${method} failed (${refusal.code}): ${refusal.description}`);
    this.name = "TelegramError";
    this.code = refusal.code;
    this.description = refusal.description;
    this.retryAfter = refusal.retryAfter ?? null;
    this.migrateTo = refusal.migrateTo ?? null;
  }

  /** 403 (blocked, deactivated) or "chat not found": the chat cannot be reached until the user writes. */
  get unreachable(): boolean {
    return this.code === 403 || /chat not found/i.test(this.description);
  }

  /** A message for a forum topic that no longer exists (deleted, or archived in a very large forum). */
  get threadGone(): boolean {
    return this.code === 400 && /message thread not found/i.test(this.description);
  }

  get cannotParse(): boolean {
    return this.code === 400 && /can't parse entities|can't find end of|unsupported start tag/i.test(this.description);
  }
}

export class NetworkError extends Error {
  constructor(
    readonly method: string,
    cause: string,
  ) {
    super(`Telegram ${method} did not answer: ${cause}`);
    this.name = "NetworkError";
  }
}

export type BotApi = { base: string; token: string };

/** Calls a Bot API method and returns its `result`; at most `timeoutMs` (a time-out is a `NetworkError`). */
export async function callBotApi<M extends MethodName>(api: BotApi, method: M, params: ParamsOf<M>, timeoutMs = BOT_API_TIMEOUT_MS): Promise<ResultOf<M>> {
  return post<ResultOf<M>>(api, method, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(params ?? {}) }, timeoutMs);
}

/** A text file to upload: its name as the chat shows it, its content and its type. */
export type TextFile = { filename: string; content: string; type: string };

/**
 * `sendDocument` with a file of the bot's own (Telegram's "multipart/form-data in the usual way"): the file
 * as the `document` part with its name, every other parameter a text part (objects, such as the buttons, as
 * JSON).
 */
export async function sendDocument(
  api: BotApi,
  params: Omit<ParamsOf<"sendDocument">, "document">,
  file: TextFile,
  timeoutMs = BOT_API_TIMEOUT_MS,
): Promise<ResultOf<"sendDocument">> {
  const form = new FormData();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) form.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  form.append("document", new File([file.content], file.filename, { type: file.type }));
  // No Content-Type of ours: fetch sets multipart/form-data with the boundary it chose.
  return post<ResultOf<"sendDocument">>(api, "sendDocument", { body: form }, timeoutMs);
}

async function post<R>(api: BotApi, method: string, init: { headers?: Record<string, string>; body: string | FormData }, timeoutMs: number): Promise<R> {
  let body: { ok?: boolean; result?: R; error_code?: number; description?: string; parameters?: { retry_after?: number; migrate_to_chat_id?: number } } | null;
  let status: number;
  try {
    const response = await fetch(`${api.base}/bot${api.token}/${method}`, { method: "POST", ...init, signal: AbortSignal.timeout(timeoutMs) });
    status = response.status;
    body = await response.json<NonNullable<typeof body>>().catch(() => null);
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const cause = timedOut
      ? `no answer within ${timeoutMs / 1000} s`
      : error instanceof Error
        ? error.message.replaceAll(api.token, "[REDACTED]")
        : "fetch failed";
    throw new NetworkError(method, cause);
  }
  if (body?.ok === true) return body.result as R;
  if (body && typeof body.error_code === "number") {
    const migrateTo = body.parameters?.migrate_to_chat_id;
    throw new TelegramError(method, {
      code: body.error_code,
      description: body.description ?? "",
      retryAfter: body.parameters?.retry_after ?? null,
      migrateTo: typeof migrateTo === "number" ? String(migrateTo) : null,
    });
  }
  if (status >= 500) throw new NetworkError(method, `HTTP ${status}`);
  throw new TelegramError(method, { code: status, description: `HTTP ${status}` });
}
