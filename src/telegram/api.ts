/**
 * @module The Bot API client (DESIGN §6): one POST per method to `${TELEGRAM_API_BASE}/bot<token>/<method>`.
 * Two kinds of failure, as grammY has them: the remote said no (`TelegramError`, with Telegram's code,
 * description and `retry_after`), or the network failed (`NetworkError`). The token never appears in errors.
 */

export class TelegramError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly description: string,
    readonly retryAfter: number | null,
  ) {
    super(`Telegram ${method} failed (${code}): ${description}`);
    this.name = "TelegramError";
  }

  /** 403 (blocked, deactivated) or "chat not found": the chat cannot be reached until the user writes. */
  get unreachable(): boolean {
    return this.code === 403 || /chat not found/i.test(this.description);
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

/** Calls a Bot API method and returns its `result`. */
export async function callBotApi<T = unknown>(api: BotApi, method: string, params: Record<string, unknown>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${api.base}/bot${api.token}/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(params),
    });
  } catch (error) {
    throw new NetworkError(method, error instanceof Error ? error.message.replaceAll(api.token, "[REDACTED]") : "fetch failed");
  }
  type Reply = { ok?: boolean; result?: T; error_code?: number; description?: string; parameters?: { retry_after?: number } };
  let body: Reply | null;
  try {
    body = (await response.json()) as Reply;
  } catch {
    body = null;
  }
  if (body?.ok === true) return body.result as T;
  if (body && typeof body.error_code === "number") {
    throw new TelegramError(method, body.error_code, body.description ?? "", body.parameters?.retry_after ?? null);
  }
  if (response.status >= 500) throw new NetworkError(method, `HTTP ${response.status}`);
  throw new TelegramError(method, response.status, `HTTP ${response.status}`, null);
}
