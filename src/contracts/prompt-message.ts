/**
 * @module The `prompts` queue message, version 1 (docs/agent.md): the one schema producers build and consumers
 * parse. At most 128 KB serialized: the field limits (a job text ≤ 4,000 characters, a user message ≤ 4,096)
 * keep every message far below it.
 */
import * as z from "zod";

import { lazy } from "../lazy";
import { CHAT_ID } from "./ids";

/** The schema, built on first use (nothing at module scope, docs/operations.md); `meta` describes it to API clients. */
export const promptMessageSchema = lazy(() =>
  z
    .strictObject({
      v: z.literal(1),
      key: z
        .string()
        .min(1)
        .max(200)
        .meta({ description: "The run id for jobs, `u:<updateId>` for a Telegram message, `m:<messageId>` for an admin-API one." }),
      chatId: z.string().regex(CHAT_ID),
      timeZone: z.string().min(1),
      source: z.enum(["user", "job", "watcher"]),
      jobId: z.string().optional(),
      jobName: z.string().optional(),
      runId: z.string().optional(),
      text: z.string().meta({ description: "The full prompt: for a job with the `[Scheduled job …]` header and the late note." }),
      body: z.string().meta({
        description: "The job's own text, the watcher's redacted output (at most 16,000 characters, its middle left out beyond that), or the user's message.",
      }),
      late: z.boolean().optional(),
      missed: z
        .number()
        .int()
        .min(2)
        .optional()
        .meta({ description: "With late: how many runs were missed while the bot was offline, this one (the latest) included, when more than one." }),
      firedAt: z.string().meta({ format: "date-time" }),
      dueAt: z.string().meta({ format: "date-time" }).optional(),
      updateId: z.number().int().optional(),
      messageId: z.string().optional(),
      userId: z
        .string()
        .regex(/^[1-9]\d{0,15}$/)
        .optional()
        .meta({
          description:
            "In a group: the Telegram user whose message this is; the turn's tools act with their rights (a member who is not an admin may only read).",
        }),
      threadId: z
        .number()
        .int()
        .optional()
        .meta({ description: "The forum topic the message came from (a job's prompt: the job's topic); replies and jobs it makes go there." }),
      language: z
        .enum(["en", "de", "fr", "es", "pt", "it", "nl", "ru"])
        .optional()
        .meta({ description: "The chat's language (docs/telegram.md#language): what an agent without a model says is in it." }),
    })
    .meta({ description: "The prompts queue message, version 1 (docs/agent.md); handling is idempotent by key." }),
);
export type PromptMessage = z.infer<ReturnType<typeof promptMessageSchema>>;
