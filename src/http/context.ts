/** @module The Hono environment shared by every route, and the guard that turns config errors into 500s. */
import type { MiddlewareHandler } from "hono";
import { errorsFor, loadConfig, type ConfigArea } from "../config";
import { ApiError } from "./errors";

export type AppEnv = { Bindings: Env };

/**
 * Refuses a route family with 500 `config_error` while a var it depends on is invalid (DESIGN §2); the
 * message is every affected sentence, in the order `/healthz` lists them.
 */
export function requireConfigured(area: ConfigArea): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const errors = errorsFor(loadConfig(c.env), area);
    if (errors.length > 0) throw new ApiError("config_error", errors.join(" "));
    await next();
  };
}
