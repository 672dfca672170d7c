/**
 * @module The bot's part of `npm run deploy` (docs/operations.md): its token checked with getMe before anything changes,
 * then, once the Worker runs, the webhook, the menu in each language and the menu button set where they differ from
 * what they should be (a second run reads them and changes nothing), and getWebhookInfo read back and explained.
 */
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { fingerprint } from "./deploy-config.mjs";
import {
  ALLOWED_UPDATES,
  BotApiRefused,
  botApi,
  buttonMatches,
  buttonText,
  explainWebhookError,
  LANGUAGES,
  LISTED_COUNT,
  menuButton,
  menus,
  menusOff,
  tokenProblem,
  webhookUrl,
} from "./telegram.mjs";

/**
 * TELEGRAM_BOT_TOKEN from the environment, else asked for without echo when stdin is a terminal; null for none.
 * @returns {Promise<string | null>}
 */
export async function botToken() {
  const given = process.env.TELEGRAM_BOT_TOKEN?.trim();
  if (given) return given;
  if (!process.stdin.isTTY) return null;
  process.stdout.write("TELEGRAM_BOT_TOKEN (from @BotFather; Enter for none): ");
  // What is typed is not shown: the interface echoes into a stream that drops it.
  const muted = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = createInterface({ input: process.stdin, output: muted, terminal: true });
  const answer = await new Promise((resolve) => rl.question("", resolve));
  rl.close();
  process.stdout.write("\n");
  return String(answer).trim() || null;
}

/**
 * The token's form and getMe: the bot's @name, or the one sentence that stops the deploy before anything changed.
 * @param {string} token @param {string} apiBase
 * @returns {Promise<{ ok: true, username: string } | { ok: false, sentence: string }>}
 */
export async function checkToken(token, apiBase) {
  const problem = tokenProblem(token);
  if (problem !== null) return { ok: false, sentence: problem };
  try {
    const me = await botApi({ base: apiBase, token, rerun: "npm run deploy" }).call("getMe");
    return { ok: true, username: me.username };
  } catch (error) {
    if (error instanceof BotApiRefused && (error.code === 401 || error.code === 404))
      return {
        ok: false,
        sentence: `Telegram does not know this TELEGRAM_BOT_TOKEN (${error.code}): copy it again from @BotFather (/mybots, API Token); nothing was changed.`,
      };
    return { ok: false, sentence: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Sets the webhook, the menus and the menu button where they differ, one line each, then reads getWebhookInfo back.
 * `lastWebhook` is the fingerprint of the webhook the last run set (address and secret; getWebhookInfo shows no secret).
 * Returns the fingerprint now set.
 * @param {{ token: string, apiBase: string, publicUrl: string, secret: string, lastWebhook: string | undefined, say: (line: string) => void }} options
 */
export async function setUpBotForDeploy({ token, apiBase, publicUrl, secret, lastWebhook, say }) {
  const api = botApi({ base: apiBase, token, rerun: "npm run deploy" });
  const url = webhookUrl(publicUrl);
  const now = fingerprint(`${url}\0${secret}\0${ALLOWED_UPDATES.join(",")}`);
  const info = await api.call("getWebhookInfo");
  const sameUpdates = JSON.stringify(info.allowed_updates ?? []) === JSON.stringify(ALLOWED_UPDATES);
  if (info.url === url && sameUpdates && lastWebhook === now) say(`Webhook: ${url}, nothing to change.`);
  else {
    await api.call("setWebhook", { url, secret_token: secret, allowed_updates: ALLOWED_UPDATES, drop_pending_updates: false });
    say(`Webhook: set to ${url}, with its secret and the ${ALLOWED_UPDATES.length} update types the bot reads (${ALLOWED_UPDATES.join(", ")}).`);
  }

  const off = new Set(await menusOff(api));
  if (off.size === 0) say(`Commands: ${LISTED_COUNT} in the menu in ${LANGUAGES.join(", ")}, nothing to change.`);
  else {
    for (const { lang, languageCode, commands } of await menus())
      if (off.has(lang)) await api.call("setMyCommands", { commands, ...(languageCode === null ? {} : { language_code: languageCode }) });
    say(`Commands: set the menu of ${LISTED_COUNT} commands in ${[...off].join(", ")}.`);
  }

  const button = menuButton(publicUrl);
  if (await buttonMatches(api, publicUrl))
    say(`Menu button: ${button ? `opens ${button.web_app.url}` : "none, since the Mini App needs an https PUBLIC_URL"}, nothing to change.`);
  else {
    await api.call("setChatMenuButton", { menu_button: button ?? { type: "default" } });
    say(`Menu button: set; ${buttonText(button)}.`);
  }

  const after = await api.call("getWebhookInfo");
  const pending = after.pending_update_count ?? 0;
  if (after.last_error_message) say(`Webhook: ${pending} pending update(s); ${explainWebhookError(after.last_error_message)}`);
  else say(`Webhook: Telegram reports ${pending} pending update(s) and no delivery error.`);
  return now;
}
