#!/usr/bin/env node
/**
 * `npm run telegram:setup`: points the bot at this Worker (docs/telegram.md). Sets the webhook to
 * `${PUBLIC_URL}/telegram/webhook` with the secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token,
 * only the update types the bot reads (messages, edited messages, button presses, and its own membership of a
 * chat changing), the command menu, and (when PUBLIC_URL is https, which Telegram requires of Mini Apps) the
 * menu button that opens the Scheduler Mini App at `${PUBLIC_URL}/app`. Then it says what a group needs: its
 * id in ALLOWED_CHAT_IDS, and, in privacy mode, the bot as an admin (or privacy mode off) for @mentions and bare
 * commands; and how a group opens the Mini App (a short name registered with @BotFather, in MINI_APP_NAME). Reads TELEGRAM_BOT_TOKEN,
 * TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL from the environment (and TELEGRAM_API_BASE, default
 * https://api.telegram.org). Prints what it did; never prints the token. Each call waits at most 15 s; a Bot
 * API that cannot be reached is said in one sentence (exit 1), not as `fetch failed`. `npm run deploy` does the
 * same through scripts/lib/telegram.mjs.
 */
import { botApi, buttonText, groupsText, LANGUAGES, LISTED_COUNT, setUpBot, webhookUrl } from "./lib/telegram.mjs";

/** @param {string} name */
function need(name) {
  const value = process.env[name]?.trim();
  if (!value) {
    console.error(`${name} is not set. Usage: TELEGRAM_BOT_TOKEN=… TELEGRAM_WEBHOOK_SECRET=… PUBLIC_URL=https://… npm run telegram:setup`);
    process.exit(2);
  }
  return value;
}

const token = need("TELEGRAM_BOT_TOKEN");
const secret = need("TELEGRAM_WEBHOOK_SECRET");
const publicUrl = need("PUBLIC_URL").replace(/\/+$/, "");
if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
  console.error("TELEGRAM_WEBHOOK_SECRET may hold only A-Z, a-z, 0-9, _ and -, at most 256 characters (Telegram's rule).");
  process.exit(2);
}
const fromEnv = process.env.TELEGRAM_API_BASE?.trim();
const api = botApi({ base: fromEnv || "https://api.telegram.org", token, rerun: "npm run telegram:setup", baseFromEnv: Boolean(fromEnv) });

try {
  const me = await api.call("getMe");
  const { button } = await setUpBot(api, { publicUrl, secret });
  console.log(
    `@${me.username}: webhook set to ${webhookUrl(publicUrl)}, ${LISTED_COUNT} commands in the menu in ${LANGUAGES.join(", ")}, ${buttonText(button)}.`,
  );
  console.log(groupsText(me.username, me.can_read_all_group_messages === true, process.env.MINI_APP_NAME?.trim() || null, publicUrl));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
