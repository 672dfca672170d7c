/**
 * @module The bot's username (docs/telegram.md: a command is the bot's when it names it), asked of Telegram with
 * `getMe` the first time a message needs it and remembered for the isolate's life, per token, for a day (a
 * bot's username changes only when its owner renames it at @BotFather). A failed `getMe` is not remembered:
 * the next message asks again.
 */
import { type BotApi, callBotApi } from "./api";

/** How long a username is remembered. */
const REMEMBERED_MS = 24 * 3_600_000;

let known: Map<string, { username: string; at: number }> | undefined;

/** The bot's username (without `@`); throws `TelegramError` or `NetworkError` when `getMe` fails. */
export async function botUsername(api: BotApi, now: number): Promise<string> {
  known ??= new Map();
  const cached = known.get(api.token);
  if (cached && now - cached.at < REMEMBERED_MS) return cached.username;
  const me = await callBotApi(api, "getMe", undefined);
  known.set(api.token, { username: me.username, at: now });
  return me.username;
}
