// @ts-check
/**
 * @module The page's one way to the JSON API (docs/page.md): same-origin requests with the session cookie, the
 * JSON content type on every request that changes something (the API's rule for cookie and open dev access),
 * a time limit on each, and the error envelope turned into an `ApiError` carrying its code and sentence. In the
 * Telegram Mini App, where the web view may keep no cookies, the session goes as a bearer header instead, and is
 * replaced by the renewed one an answer carries (`X-Cuckoo-Session`).
 */

import { t } from "./texts.js";

/** A refusal of the API (`{ error: { code, message } }`), or a network failure (`code` "network"). */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const TIME_LIMIT_MS = 15_000;
/** A Mini App session sent as `Authorization: Bearer` (set only when the cookie did not stick). @type {string | null} */
let bearer = null;

/** Sends `session` as a bearer header on every request from now on. @param {string} session */
export function useBearer(session) {
  bearer = session;
}

/**
 * One request; resolves with the parsed JSON (null for 204), rejects with `ApiError`.
 * @param {"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["Content-Type"] = "application/json";
  if (bearer !== null) headers.Authorization = `Bearer ${bearer}`;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal: AbortSignal.timeout(TIME_LIMIT_MS),
    });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    throw new ApiError(0, "network", timedOut ? t().noAnswer : t().unreachable);
  }
  // A group's Mini App session is renewed as it is used: the cookie is replaced by the answer, a bearer value here.
  const renewed = res.headers.get("X-Cuckoo-Session");
  if (bearer !== null && renewed) bearer = renewed;
  const text = await res.text();
  let data = null;
  try {
    data = text === "" ? null : JSON.parse(text);
  } catch {
    throw new ApiError(res.status, "bad_answer", t().notJson(res.status));
  }
  if (!res.ok) {
    const error = data && typeof data === "object" && data.error ? data.error : null;
    throw new ApiError(res.status, error?.code ?? "http", error?.message ?? t().answered(res.status));
  }
  return data;
}

/** `/admin/chats/<id>` with the id encoded. @param {string} chatId */
export const chatPath = (chatId) => `/admin/chats/${encodeURIComponent(chatId)}`;
