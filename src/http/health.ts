/** @module `GET /healthz` (DESIGN §10): the modes the Worker runs in, or every config error; never a secret. */
import type { Context } from "hono";
import { loadConfig } from "../config";
import { VERSION } from "../version";
import type { AppEnv } from "./context";

export type Health =
  | { ok: true; version: string; telegram: "off" | "webhook"; runner: "off" | "url" | "container"; agent: "echo" | "llm" }
  | { ok: false; errors: string[] };

/** 200 with the modes, or 503 listing each invalid var as a sentence. No auth: it reveals no secrets. */
export function health(c: Context<AppEnv>) {
  const { config, errors } = loadConfig(c.env);
  c.header("Cache-Control", "no-store");
  if (errors.length > 0) {
    const body: Health = { ok: false, errors: [...errors] };
    return c.json(body, 503);
  }
  const body: Health = {
    ok: true,
    version: VERSION,
    telegram: config.telegram.mode,
    runner: config.runner.mode,
    agent: config.agent.kind,
  };
  return c.json(body, 200);
}
