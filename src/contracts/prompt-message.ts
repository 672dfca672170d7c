/**
 * @module The `prompts` queue message, version 1 (DESIGN §7): the one schema producers build and consumers
 * parse. At most 128 KB serialized: the field limits (a job text ≤ 4,000 characters, a user message ≤ 4,096)
 * keep every message far below it.
 */
import * as z from "zod";

import { lazy } from "../lazy";
import { CHAT_ID } from "./ids";

/** The schema, built on first use (nothing at module scope, DESIGN §12). */
export const promptMessageSchema = lazy(() =>
  z.strictObject({
  v: z.literal(1),
  /** The run id for jobs, `u:<updateId>` for a Telegram message, `m:<messageId>` for an admin-API one. */
  key: z.string().min(1).max(200),
  chatId: z.string().regex(CHAT_ID),
  timeZone: z.string().min(1),
  source: z.enum(["user", "job", "watcher"]),
  jobId: z.string().optional(),
  jobName: z.string().optional(),
  runId: z.string().optional(),
  /** The full prompt: for jobs with the `[Scheduled job …]` header and the late note. */
  text: z.string(),
  /** The job's own text, the redacted watcher output, or the user's message. */
  body: z.string(),
  late: z.boolean().optional(),
  firedAt: z.string(),
  dueAt: z.string().optional(),
  updateId: z.number().int().optional(),
  messageId: z.string().optional(),
  }),
);
export type PromptMessage = z.infer<ReturnType<typeof promptMessageSchema>>;
