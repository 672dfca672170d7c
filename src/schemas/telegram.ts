/**
 * @module The webhook's answer to Telegram (docs/telegram.md): always `{ ok: true }` once the secret matched, also for
 * an update it ignores or cannot read, so Telegram never redelivers it. The update itself is `telegram/update.ts`'s.
 */
import * as z from "zod";
import { lazy } from "../lazy";

export const webhookAck = lazy(() => z.strictObject({ ok: z.literal(true) }));
export type WebhookAck = z.infer<ReturnType<typeof webhookAck>>;
