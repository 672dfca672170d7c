/** @module `GET /healthz`'s answers (docs/api.md): the modes the Worker runs in, or every config error; never a secret. */
import * as z from "zod";
import { lazy } from "../lazy";

/** 200: configured. */
export const healthOk = lazy(() =>
  z.strictObject({
    ok: z.literal(true),
    version: z.string(),
    telegram: z.enum(["off", "webhook"]),
    runner: z.enum(["off", "url", "container"]).meta({
      description:
        "url when RUNNER_URL is set (it wins over the container binding); container with the RUNNER binding once RUNNER_SECRET is set; off otherwise.",
    }),
    agent: z.enum(["echo", "llm"]),
    agentProvider: z.enum(["openai", "workers-ai"]).meta({
      description: "LLM_PROVIDER: whose model llm calls, LLM_BASE_URL's OpenAI-compatible server or Workers AI through the AI binding.",
    }),
    agentNote: z
      .string()
      .optional()
      .meta({ description: "Why the agent is echo although LLM_PROVIDER=workers-ai asks for a model (no AI binding), and what to do." }),
    blockedChats: z
      .number()
      .int()
      .optional()
      .meta({ description: "With a bot: chats Telegram said cannot be reached (docs/telegram.md), from the D1 directory." }),
  }),
);

/** 503: one sentence per invalid var. */
export const healthErrors = lazy(() =>
  z.strictObject({ ok: z.literal(false), errors: z.array(z.string()).meta({ description: "One sentence per invalid var." }) }),
);

export type Health = z.infer<ReturnType<typeof healthOk>> | z.infer<ReturnType<typeof healthErrors>>;
