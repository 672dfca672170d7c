/**
 * @module The one error path of the HTTP edge (docs/api.md): `ApiError` carries a code and a sentence,
 * `onError` and `notFound` turn everything into the envelope `{ error: { code, message } }`.
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import { withoutTokens } from "../hooks/token";
import { ERROR_STATUS, type ErrorCode, type ErrorEnvelope } from "../schemas/errors";

/** An expected failure: thrown anywhere below a route, answered once by `onError` as the envelope. */
export class ApiError extends HTTPException {
  readonly code: ErrorCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(ERROR_STATUS[code], { message });
    this.name = "ApiError";
    this.code = code;
    this.headers = headers;
  }
}

/** Builds the envelope response (also for middleware that answers without throwing). */
export function errorResponse(c: Context, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
  const body: ErrorEnvelope = { error: { code, message } };
  return c.json(body, ERROR_STATUS[code], headers);
}

/** Hono's own HTTPExceptions (none expected today) keep their status with the nearest code. */
function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return "bad_request";
    case 401:
      return "unauthorized";
    case 403:
      return "forbidden";
    case 404:
      return "not_found";
    case 409:
      return "conflict";
    case 413:
      return "payload_too_large";
    case 415:
      return "unsupported_media_type";
    case 429:
      return "rate_limited";
    case 503:
      return "not_configured";
    default:
      return status >= 500 ? "internal" : "bad_request";
  }
}

export const onError: ErrorHandler = (err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err.code, err.message, { ...err.headers });
  if (err instanceof HTTPException) {
    const code = codeForStatus(err.status);
    return errorResponse(c, code, err.message || `The request failed (${err.status}).`);
  }
  // A bug: log it whole, show no internals (nor a hook's token, which is its path).
  console.error(`${c.req.method} ${withoutTokens(c.req.path)} failed:`, err);
  return errorResponse(c, "internal", "Something went wrong on our side; the error has been logged.");
};

/** The sentence for a request no route serves (the path cut to 200 characters). */
export function noRouteText(method: string, path: string): string {
  return `No route ${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}; see GET /admin/openapi.json.`;
}

export const notFound: NotFoundHandler = (c) => errorResponse(c, "not_found", noRouteText(c.req.method, c.req.path));
