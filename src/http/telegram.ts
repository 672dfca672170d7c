/**
 * @module `POST /telegram/webhook` (docs/telegram.md): the secret header checked in constant time, the update parsed,
 * only the chats the bot serves (`served.ts`: the private chats of allowed users, the allowed groups) passed on
 * (others get nothing and leave no state), and of a group's messages only those for the bot (`address.ts`: a
 * command of this bot, a mention, a reply to it), which is where the bot's username (`getMe`, remembered) is
 * needed. The pair of messages that announce a basic group becoming a supergroup moves the chat there, once
 * Telegram confirms it. The update goes to the chat's Durable Object. Answers fast; replies go through the Bot
 * API, never in this response. Every pressed button is answered once (`answerCallbackQuery`), one that is no
 * button of ours too; an answered question's buttons are taken away, and an answered job message's buttons
 * become the line that says what was done (`editMessageReplyMarkup`).
 */
import { Hono, type MiddlewareHandler } from "hono";
import { CHAT_ID } from "../contracts/ids";
import type { WebhookAck } from "../schemas/telegram";
import { addressed, botIdOf, needsUsername } from "../telegram/address";
import { callBotApi } from "../telegram/api";
import { INVALID_BUTTON, keyboard } from "../telegram/buttons";
import { botUsername } from "../telegram/identity";
import { migrationOf, updateOrigin, updateSchema } from "../telegram/update";
import { sameSecret } from "./auth";
import { limitBody, readBodyText } from "./body";
import { type AppEnv, requireConfigured } from "./context";
import { ApiError, noRouteText } from "./errors";
import type { Operation } from "./openapi-components";
import { served, servedGroup } from "./served";

export const telegram = new Hono<AppEnv>();

/** A chat's object, as the webhook reaches it. */
type ChatStub = DurableObjectStub<import("../chat/ChatScheduler").ChatScheduler>;
const ACK: WebhookAck = { ok: true };

telegram.use("*", async (c, next) => {
  // Transcript mode: there is no webhook.
  if (c.var.config.telegram.mode === "off") throw new ApiError("not_found", noRouteText(c.req.method, c.req.path));
  await next();
});
telegram.use("*", requireConfigured("telegram"));

/** The secret header, checked in constant time before the body is read. */
const requireWebhookSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const given = c.req.header("x-telegram-bot-api-secret-token") ?? "";
  if (!(await sameSecret(given, c.var.config.telegram.webhookSecret ?? ""))) {
    throw new ApiError("unauthorized", "The X-Telegram-Bot-Api-Secret-Token header does not match TELEGRAM_WEBHOOK_SECRET.");
  }
  await next();
};

telegram.post("/webhook", requireWebhookSecret, limitBody(), async (c) => {
  const { telegram: t } = c.var.config;
  let update: ReturnType<ReturnType<typeof updateSchema>["parse"]>;
  try {
    update = updateSchema().parse(JSON.parse(await readBodyText(c)));
  } catch (error) {
    console.error("telegram: acknowledged a malformed update", error instanceof Error ? error.message : String(error));
    return c.json(ACK, 200);
  }
  const origin = updateOrigin(update);
  const api = { base: t.apiBase, token: t.botToken ?? "" };
  // A basic group became a supergroup: either message of Telegram's pair moves the group's chat (once), when the
  // old chat is served and Telegram confirms the move (the old chat's object asks it, src/chat/moves.ts).
  const move = update.message ? migrationOf(update.message) : null;
  if (move) {
    let refused = `Chat ${move.from} is not served, so nothing of it moves.`;
    if (CHAT_ID.test(move.from) && CHAT_ID.test(move.to) && (await servedGroup(c.var.config, c.env.DB, move.from))) {
      let moved: Awaited<ReturnType<ChatStub["moveTo"]>>;
      const sendAgain = (why: string) => {
        console.error(`telegram: update ${update.update_id}: the move of chat ${move.from} to ${move.to} is left for Telegram to send again: ${why}`);
        return new ApiError("not_configured", "Telegram could not be asked whether the group moved; the update is to be sent again.");
      };
      try {
        moved = await c.env.CHAT.getByName(move.from).moveTo(move.from, move.to);
      } catch (error) {
        // The object failed: the update goes back, and Telegram sends it again.
        throw sendAgain(error instanceof Error ? error.message : String(error));
      }
      // Telegram could not be asked: the same.
      if (!moved.ok && "unconfirmed" in moved) throw sendAgain(moved.error.message);
      refused = moved.ok ? "" : moved.error.message;
    }
    if (refused !== "") console.error(`telegram: update ${update.update_id}: chat ${move.from} did not move to ${move.to}: ${refused}`);
    return c.json(ACK, 200);
  }
  // Every press is answered exactly once, ours or not: an unanswered one leaves the user's button spinning.
  const query = update.callback_query;
  const answer = (text: string) => {
    if (!query || !t.botToken) return;
    const answered = callBotApi(api, "answerCallbackQuery", { callback_query_id: query.id, text }).catch((error: unknown) =>
      console.error("telegram: answerCallbackQuery failed", error instanceof Error ? error.message : error),
    );
    c.executionCtx.waitUntil(answered);
  };
  if (!origin || !(await served(c.var.config, c.env.DB, origin))) {
    answer(INVALID_BUTTON);
    return c.json(ACK, 200);
  }
  let username: string | null = null;
  // An edit is for the bot as its message was (an edited /remind edits its job).
  const message = update.message ?? update.edited_message;
  if (message) {
    const group = origin.chatType !== "private";
    // A group's command may have /jobs answer with the Mini App's link, which names the bot.
    const wanted = needsUsername(message) || (group && t.miniAppName !== null && (message.text ?? "").startsWith("/"));
    if (wanted) {
      try {
        username = await botUsername(api, Date.now());
      } catch (error) {
        // Without it the message cannot be told apart: Telegram delivers it again after this failure.
        console.error(
          `telegram: getMe failed, so update ${update.update_id} is left for Telegram to send again`,
          error instanceof Error ? error.message : error,
        );
        throw new ApiError("not_configured", "The bot's username could not be read from Telegram (getMe); the update is to be sent again.");
      }
    }
    if (addressed(message, { id: botIdOf(api.token), username }) === "none") return c.json(ACK, 200);
  }
  const result = await c.env.CHAT.getByName(origin.chatId).handleUpdate(update, { botUsername: username, origin: new URL(c.req.url).origin });
  if (!result.ok) console.error(`telegram: update ${update.update_id} refused: ${result.error.message}`);
  // A repeated update was answered the first time.
  if (query && !(result.ok && result.value.handled === "duplicate")) {
    const pressed = result.ok && result.value.handled === "callback" ? result.value : null;
    answer(pressed === null ? INVALID_BUTTON : (pressed.callbackText ?? ""));
    // An offer answered or a zone chosen: its buttons go, so that the question does not look open; a job's
    // message answered: its buttons become the one line that says what was done.
    const rows = pressed?.keyboard;
    if (rows !== undefined && query.message && t.botToken) {
      const edited = callBotApi(api, "editMessageReplyMarkup", {
        chat_id: query.message.chat.id,
        message_id: query.message.message_id,
        reply_markup: keyboard(rows),
      }).catch((error: unknown) => console.error("telegram: editMessageReplyMarkup failed", error instanceof Error ? error.message : error));
      c.executionCtx.waitUntil(edited);
    }
  }
  return c.json(ACK, 200);
});

/** What the OpenAPI document says of the webhook: `openapi.ts` builds it, a test checks it against the app. */
export const webhookOperations = (): Operation[] => [
  {
    method: "post",
    path: "/telegram/webhook",
    summary: "Telegram's webhook (for Telegram, not for people): the update goes to the chat's object.",
    description:
      "Served: the private chats of users in ALLOWED_USER_IDS, the groups in ALLOWED_CHAT_IDS (and the supergroup a listed group became); " +
      "of a group's messages, only a command of this bot, a mention of it or a reply to it. " +
      "Every other update, and one that cannot be read, is acknowledged and leaves no state. Replies go through the Bot API, never in this answer. " +
      "Telegram sends more fields than the schema lists; they are ignored.",
    access: "telegram",
    body: "TelegramUpdate",
    answersInput: true,
    answers: [[200, "Acknowledged, whatever the update held.", "WebhookAck"]],
    errors: { not_configured: "the bot's username could not be read (getMe failed) for a group message that names a bot: Telegram sends the update again" },
  },
];
