/**
 * @module Access to the token-guarded route families (docs/api.md#access): a set token is always required and compared
 * in constant time (for the admin API, the page's signed session cookie stands for it, `session-cookie.ts`); an
 * unset one opens the routes only under `CUCKOO_DEV=1`, to localhost pages sending JSON; deployed without a token
 * they answer 503 `not_configured`. A Mini App session (`app-access.ts`) is checked first on the admin API, and is
 * then kept to its own chat.
 */
import type { MiddlewareHandler } from "hono";
import { appAccess } from "./app-access";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import { BODY_METHODS, bearer, mediaType } from "./request-parts";
import { checkSameOrigin, sessionOf, verifySession } from "./session-cookie";

/** Which secret guards a route family: `ADMIN_TOKEN` for /admin/*, `TOOLS_TOKEN` for /tools/* and /mcp/*. */
export type TokenName = "ADMIN_TOKEN" | "TOOLS_TOKEN";

const API_NAME: Record<TokenName, string> = { ADMIN_TOKEN: "the admin API", TOOLS_TOKEN: "the tools API" };
const CHALLENGE = { "WWW-Authenticate": "Bearer" };
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Middleware enforcing the access rule for the routes guarded by `name`. */
export function requireToken(name: TokenName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { config } = c.var;
    // A Mini App session (issue 18) first: it is checked against the bot, whether ADMIN_TOKEN is set or not.
    const app = name === "ADMIN_TOKEN" ? await appAccess(c) : null;
    if (app !== null) {
      c.set("access", app);
      return next();
    }
    const token = name === "ADMIN_TOKEN" ? config.adminToken : config.toolsToken;
    if (token !== null) {
      const header = c.req.header("authorization");
      const session = name === "ADMIN_TOKEN" && header === undefined ? sessionOf(c) : undefined;
      if (session !== undefined) {
        // The page's cookie: a signed session that has not expired, on a same-origin request.
        const expiresAt = await verifySession(session, token, Date.now());
        if (expiresAt === null) throw new ApiError("unauthorized", "The session has expired or is not valid; sign in again with ADMIN_TOKEN.", CHALLENGE);
        checkSameOrigin(c.req.raw);
        c.set("access", { via: "cookie", expiresAt });
      } else {
        const presented = bearer(header);
        if (presented === null) throw new ApiError("unauthorized", `Send ${name} as "Authorization: Bearer <token>".`, CHALLENGE);
        if (!(await sameSecret(presented, token))) throw new ApiError("unauthorized", `The bearer token does not match ${name}.`, CHALLENGE);
        c.set("access", { via: "bearer", expiresAt: null });
      }
    } else if (config.dev) {
      checkOpenDevRequest(c.req.raw);
      c.set("access", { via: "open", expiresAt: null });
    } else {
      throw new ApiError("not_configured", `Set the ${name} secret (wrangler secret put ${name}) to use ${API_NAME[name]}.`);
    }
    await next();
  };
}

/**
 * The guard of an open dev route: a web page the developer visits must not reach it. The request must be
 * addressed to localhost, 127.0.0.1 or [::1] (any port): a page on another site can reach the dev server
 * through a name it rebinds to 127.0.0.1 (DNS rebinding), and then its requests are same-origin and carry no
 * `Origin`, but they still name that site as their host. Browsers send `Origin` (and usually `Referer`) on
 * cross-site requests, and cannot send `Content-Type: application/json` cross-site without a CORS preflight,
 * which nothing here answers. The content type is required on every POST, PUT and PATCH, with or without a
 * body, since a body-less cross-site POST is a "simple" request too.
 */
export function checkOpenDevRequest(request: Request): void {
  // Under wrangler dev the request URL's host is the client's Host header.
  const host = new URL(request.url).hostname;
  if (!LOCAL_HOSTS.has(host))
    throw new ApiError(
      "forbidden",
      `The open dev API answers only requests to localhost, 127.0.0.1 or [::1]; this one is addressed to ${JSON.stringify(host.slice(0, 100))}.`,
    );
  for (const header of ["Origin", "Referer"]) {
    const value = request.headers.get(header);
    if (value !== null && !isLocalPage(value))
      throw new ApiError(
        "forbidden",
        `The open dev API answers only pages on localhost, 127.0.0.1 or [::1]; the ${header} header is ${JSON.stringify(value.slice(0, 100))}.`,
      );
  }
  if (BODY_METHODS.has(request.method) && mediaType(request.headers.get("content-type")) !== "application/json")
    throw new ApiError("forbidden", `The open dev API needs "Content-Type: application/json" on ${request.method} requests.`);
}

function isLocalPage(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && LOCAL_HOSTS.has(url.hostname);
}

/**
 * Constant-time equality of two secrets. Both sides are hashed first, so the comparison always runs over
 * 32 equal-length bytes and neither timing nor an early length check reveals the token's length.
 */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [x, y] = await Promise.all([crypto.subtle.digest("SHA-256", encoder.encode(a)), crypto.subtle.digest("SHA-256", encoder.encode(b))]);
  if (typeof crypto.subtle.timingSafeEqual === "function") return crypto.subtle.timingSafeEqual(x, y);
  const u = new Uint8Array(x);
  const v = new Uint8Array(y);
  let diff = 0;
  for (let i = 0; i < u.length; i++) diff |= u[i]! ^ v[i]!;
  return diff === 0;
}
