/**
 * @module The Hono environment shared by every route: the config read once per request into the context, and
 * the guard that turns config errors into 500s.
 */
import type { MiddlewareHandler } from "hono";
import { type Config, type ConfigArea, errorsFor, type LoadedConfig, loadConfig } from "../config";
import { ApiError } from "./errors";

/**
 * How a request passed the admin guard (`requireToken`): open dev mode, the page's cookie, a bearer token, or a
 * Mini App session (`app`, which names the one chat it may use, its user, and whether it may only read).
 */
export type Access = { via: "open" | "cookie" | "bearer" | "app"; expiresAt: number | null; chatId?: string; userId?: string; readOnly?: boolean };

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** The validated config (docs/api.md#access); `loaded` has its errors too. */
    config: Config;
    loaded: LoadedConfig;
    /** How the request passed the admin guard (`requireToken`), for `GET /admin/session`. */
    access?: Access;
  };
};

/** Reads the config once for the request (`c.var.config`, `c.var.loaded`); the app runs it before anything else. */
export const withConfig: MiddlewareHandler<AppEnv> = async (c, next) => {
  const loaded = loadConfig(c.env);
  c.set("loaded", loaded);
  c.set("config", loaded.config);
  await next();
};

/**
 * Refuses a route family with 500 `config_error` while a var it depends on is invalid (docs/api.md#access); the
 * message is every affected sentence, in the order `/healthz` lists them.
 */
export function requireConfigured(area: ConfigArea): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const errors = errorsFor(c.var.loaded, area);
    if (errors.length > 0) throw new ApiError("config_error", errors.join(" "));
    await next();
  };
}
