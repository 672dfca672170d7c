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
 * API that cannot be reached is said in one sentence (exit 1), not as `fetch failed`.
 */
// The menu is the bot's own command list, said in each language's replies' table (Node 22 strips the types of
// these dependency-free modules).
const { commandMenu, LISTED, MENU_BUTTON, miniAppUrl } = await import("../src/telegram/menu.ts");
const LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"];
const menus = await Promise.all(LANGUAGES.map(async (lang) => ({ lang, commands: commandMenu((await import(`../src/texts/${lang}.ts`)).texts.help) })));

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
const base = (process.env.TELEGRAM_API_BASE?.trim() || "https://api.telegram.org").replace(/\/+$/, "");
if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
  console.error("TELEGRAM_WEBHOOK_SECRET may hold only A-Z, a-z, 0-9, _ and -, at most 256 characters (Telegram's rule).");
  process.exit(2);
}

/**
 * @param {string} method
 * @param {Record<string, unknown>} params
 * @returns {Promise<any>}
 */
async function call(method, params) {
  let response;
  try {
    response = await fetch(`${base}/bot${token}/${method}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(params),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new Error(unreachable(method, error));
  }
  /** @type {{ ok?: boolean, result?: unknown, error_code?: number, description?: string }} */
  const body = /** @type {any} */ (await response.json().catch(() => ({})));
  if (!body.ok) throw new Error(`${method} failed (${body.error_code ?? response.status}): ${body.description ?? "no description"}`);
  return body.result;
}

/** Network error codes as a person says them. */
const WHY = /** @type {Record<string, string>} */ ({
  ENOTFOUND: "its host name does not resolve",
  EAI_AGAIN: "its host name does not resolve",
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  ENETUNREACH: "the network is unreachable",
  EHOSTUNREACH: "the host is unreachable",
});

/**
 * The sentence for a Bot API that did not answer: no network, a name that does not resolve, a refused
 * connection or a time-out, with the cause (never the token: only the base URL is named).
 * @param {string} method
 * @param {unknown} error
 */
function unreachable(method, error) {
  const cause = /** @type {{ cause?: { code?: string, message?: string } }} */ (error)?.cause;
  const timedOut = error instanceof Error && error.name === "TimeoutError";
  const code = cause?.code ?? "";
  const why = timedOut ? "no answer within 15 s" : (WHY[code] ?? (code || cause?.message || (error instanceof Error ? error.message : String(error))));
  const check = `check this machine's network connection${process.env.TELEGRAM_API_BASE ? " and TELEGRAM_API_BASE" : ""}`;
  const state = method === "getMe" ? "Nothing was changed." : `The steps before ${method} were done; running it again is safe.`;
  return `Could not reach the Bot API at ${base} (${why}): ${check}, then run npm run telegram:setup again. ${state}`;
}

/**
 * What a group needs, in a few lines (privacy mode: Telegram's default, which getMe reports).
 * @param {string} bot @param {boolean} readsAll @param {string | null} appName
 */
function groupsText(bot, readsAll, appName) {
  const privacy = readsAll
    ? `Privacy mode is off for @${bot}: in a group it receives every message and answers commands, mentions and replies to it.`
    : `Privacy mode is on for @${bot} (Telegram's default): in a group it receives only /command@${bot}, replies to its messages and service messages. For @mentions and bare /commands, make @${bot} an admin of the group, or turn privacy mode off (@BotFather, /setprivacy, Disable) and add the bot to the group again.`;
  const app = appName
    ? `In a group, /jobs links to the Mini App: https://t.me/${bot}/${appName}?startapp=<group id>.`
    : `To open the Mini App from a group, register it with @BotFather (/newapp, Web App URL ${publicUrl}/app, a short name such as scheduler) and set MINI_APP_NAME to that short name.`;
  return [
    `Groups: add each group's chat id to ALLOWED_CHAT_IDS (it is in the webhook's updates, negative, such as -1001234567890); its admins and the users in ALLOWED_USER_IDS change its jobs, its members read them.`,
    privacy,
    app,
  ].join("\n");
}

try {
  const me = await call("getMe", {});
  await call("setWebhook", {
    url: `${publicUrl}/telegram/webhook`,
    secret_token: secret,
    allowed_updates: ["message", "edited_message", "callback_query", "my_chat_member"],
    drop_pending_updates: false,
  });
  // English for every user whose app's language has no menu of its own, and one menu per language.
  for (const { lang, commands } of menus) await call("setMyCommands", { commands, ...(lang === "en" ? {} : { language_code: lang }) });
  const app = miniAppUrl(publicUrl);
  // The bot's default menu button (every private chat): the Scheduler Mini App, which Telegram opens only over https.
  if (app !== null) await call("setChatMenuButton", { menu_button: { type: "web_app", text: MENU_BUTTON, web_app: { url: app } } });
  const button = app !== null ? `the menu button opens ${app}` : "no menu button (the Mini App needs an https PUBLIC_URL)";
  console.log(`@${me.username}: webhook set to ${publicUrl}/telegram/webhook, ${LISTED.length} commands in the menu in ${LANGUAGES.join(", ")}, ${button}.`);
  console.log(groupsText(me.username, me.can_read_all_group_messages === true, process.env.MINI_APP_NAME?.trim() || null));
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
