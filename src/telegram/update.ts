/**
 * @module The part of a Telegram Update the bot reads (DESIGN §6), parsed with zod; types of the full Bot API
 * come from @grammyjs/types where a shape is sent back. Anything else in an update is ignored.
 */
import * as z from "zod";

import { lazy } from "../lazy";

export const updateSchema = lazy(() => {
  const user = z.object({ id: z.number().int(), is_bot: z.boolean().optional(), username: z.string().optional(), language_code: z.string().optional() });
  const chat = z.object({ id: z.number().int(), type: z.string() });
  // The message a message replies to: its id (a job's message names its job) and its text, quoted to the agent.
  const replied = z.object({ message_id: z.number().int(), text: z.string().optional(), caption: z.string().optional() });
  const message = z.object({
    message_id: z.number().int(),
    from: user.optional(),
    chat,
    date: z.number().int().optional(),
    text: z.string().optional(),
    reply_to_message: replied.optional(),
  });
  return z.object({
    update_id: z.number().int().nonnegative(),
    message: message.optional(),
    // A message the user edited (DESIGN §6 Replies and edits): an edited /remind or /every edits its job.
    edited_message: message.optional(),
    callback_query: z
      .object({
        id: z.string(),
        from: user,
        message: z.object({ message_id: z.number().int(), chat }).optional(),
        data: z.string().optional(),
      })
      .optional(),
  });
});
export type Update = z.infer<ReturnType<typeof updateSchema>>;

/** The chat an update belongs to and the user who sent it, when it is one the bot serves at all. */
export function updateOrigin(update: Update): { chatId: string; userId: string; chatType: string } | null {
  const message = update.message ?? update.edited_message;
  if (message?.from) return { chatId: String(message.chat.id), userId: String(message.from.id), chatType: message.chat.type };
  const q = update.callback_query;
  if (q?.message) return { chatId: String(q.message.chat.id), userId: String(q.from.id), chatType: q.message.chat.type };
  return null;
}
