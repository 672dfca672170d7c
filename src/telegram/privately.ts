/**
 * @module A command's reply that shows a secret address (a hook's URL, docs/hooks.md#secrets-shown-once; a calendar
 * feed's, docs/calendar.md): in a private chat it is shown once and the transcript keeps `[shown once]`; in a group it
 * goes to its sender privately, straight from the group's object, once (the update is answered once), never kept, and
 * the group is told where it went, or, when Telegram will not deliver it (they never started the bot), how to get it.
 */
import { type Config, isGroupId } from "../config";
import { callBotApi } from "./api";
import type { Reply } from "./buttons";

/**
 * The reply that shows `secret` after `lines`: secret in a private chat; in a group, `secret` privately (`what` names
 * it in the log should it not go) and `group.sent`, or `group.refused`, to the group after the same lines.
 */
export function shownOnce(chatId: string, lines: readonly string[], secret: string, group: { what: string; sent: string; refused: string }): Reply {
  const markdown = [...lines, secret].join("\n");
  if (!isGroupId(chatId)) return { markdown, secret: true };
  return { markdown: [...lines, group.sent].join("\n"), privately: markdown, privateRefused: [...lines, group.refused].join("\n"), privateWhat: group.what };
}

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
    const what = reply.privateWhat ?? "a private reply";
    console.error(`${what} could not be sent to user ${userId} privately: ${error instanceof Error ? error.message : String(error)}`);
    return refused;
  }
}
