/** @module `GET /healthz` (docs/api.md): the modes the Worker runs in, or every config error; never a secret. */
import type { Context } from "hono";
import { countBlockedChats } from "../directory/read";
import type { Health } from "../schemas/health";
import { VERSION } from "../version";
import type { AppEnv } from "./context";
import type { Operation } from "./openapi-components";

/** 200 with the modes, or 503 listing each invalid var as a sentence. No auth: it reveals no secrets. */
export async function health(c: Context<AppEnv>) {
  const { config, errors } = c.var.loaded;
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
    agentProvider: config.agent.provider,
  };
  if (config.agent.note !== null) body.agentNote = config.agent.note;
  if (config.telegram.mode !== "off") {
    try {
      body.blockedChats = await countBlockedChats(c.env.DB);
    } catch (error) {
      console.error("healthz: could not count blocked chats", error);
    }
  }
  return c.json(body, 200);
}

/** What the OpenAPI document says of `GET /healthz`: `openapi.ts` builds it, a test checks it against the app. */
export const healthOperations = (): Operation[] => [
  {
    method: "get",
    path: "/healthz",
    summary: "Health: the modes the Worker runs in, or every configuration error.",
    access: "public",
    answers: [
      [200, "Configured.", "HealthOk"],
      [503, "One or more vars are invalid.", "HealthErrors"],
    ],
  },
];
