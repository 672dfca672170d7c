/**
 * @module A group command's reply that goes to its sender privately (a hook's URL, docs/hooks.md#secrets-shown-once):
 * sent to them straight from the group's object, once (the update is answered once), never kept; the group is told
 * where it went, or, when Telegram will not deliver it (they never started the bot), how to get it.
 */
import type { Config } from "../config";
import { callBotApi } from "./api";
import type { Reply } from "./buttons";

/** The reply the group gets once `reply.privately` went to `userId` (or could not). */
export async function sentPrivately(telegram: Config["telegram"], reply: Reply, userId: string | null): Promise<Reply> {
  if (reply.privately === undefined) return reply;
  const refused = { markdown: reply.privateRefused ?? reply.markdown };
  if (telegram.botToken === null || userId === null) return refused;
  const api = { base: telegram.apiBase, token: telegram.botToken };
  try {
    await callBotApi(api, "sendMessage", { chat_id: Number(userId), text: reply.privately, link_preview_options: { is_disabled: true } });
    return { markdown: reply.markdown, ...(reply.jobId === undefined ? {} : { jobId: reply.jobId }) };
  } catch (error) {
    console.error(`a hook's address could not be sent to user ${userId} privately: ${error instanceof Error ? error.message : String(error)}`);
    return refused;
  }
}
