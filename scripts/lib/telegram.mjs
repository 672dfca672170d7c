/**
 * @module What `npm run telegram:setup`, `npm run deploy` and `npm run doctor` share about the bot (docs/telegram.md,
 * docs/doctor.md): the Bot API called with a time limit (an API that cannot be reached is one sentence, never the
 * token), the token's form, the webhook's parameters (its URL, the update types the bot reads), the command menu in
 * each language, the menu button that opens the Mini App, what a group needs, and what `getWebhookInfo`'s
 * `last_error_message` means.
 */

// The menu is the bot's own command list, said in each language's replies' table (Node 22 strips the types of
// these dependency-free modules).
const { commandMenu, LISTED, MENU_BUTTON, miniAppUrl } = await import("../../src/telegram/menu.ts");

/** The languages the bot has a menu in; English is also the menu of every other language. */
export const LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"];

/** How many commands the menu lists. */
export const LISTED_COUNT = LISTED.length;

/** The update types the bot reads: messages, edited messages, button presses and its own membership changing. */
export const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "my_chat_member"];

/** How long one Bot API call may take. */
const TIMEOUT_MS = 15_000;

/** @typedef {{ command: string, description: string }} BotCommand */

/**
 * The menu in each language (`language_code` null for the default, English).
 * @returns {Promise<{ lang: string, languageCode: string | null, commands: BotCommand[] }[]>}
 */
export async function menus() {
  return Promise.all(
    LANGUAGES.map(async (lang) => ({
      lang,
      languageCode: lang === "en" ? null : lang,
      commands: commandMenu((await import(`../../src/texts/${lang}.ts`)).texts.help),
    })),
  );
}

/** The webhook's address for a Worker's base URL. @param {string} publicUrl */
export const webhookUrl = (publicUrl) => `${publicUrl}/telegram/webhook`;

/**
 * The menu button a Worker at `publicUrl` should have: the Mini App (Telegram opens one only over https), or null.
 * @param {string} publicUrl
 * @returns {{ type: "web_app", text: string, web_app: { url: string } } | null}
 */
export function menuButton(publicUrl) {
  const app = miniAppUrl(publicUrl);
  return app === null ? null : { type: "web_app", text: MENU_BUTTON, web_app: { url: app } };
}

/**
 * Why a string is not a bot token (`<bot id>:<35 characters>`, as @BotFather gives it), or null when it has that form.
 * @param {string} token
 */
export function tokenProblem(token) {
  if (/^\d{5,15}:[A-Za-z0-9_-]{30,}$/.test(token)) return null;
  return "TELEGRAM_BOT_TOKEN does not look like a bot token: @BotFather gives one such as 123456789:AAE… (the bot's id, a colon, 35 characters); nothing was changed.";
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
 * Why a fetch did not get an answer, as a person says it (never the URL: a Bot API URL holds the token).
 * @param {unknown} error @param {number} timeoutMs
 */
export function whyUnreachable(error, timeoutMs) {
  const cause = /** @type {{ cause?: { code?: string, message?: string } }} */ (error)?.cause;
  const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
  const code = cause?.code ?? "";
  return timedOut
    ? `no answer within ${Math.round(timeoutMs / 1000)} s`
    : (WHY[code] ?? (code || cause?.message || (error instanceof Error ? error.message : String(error))));
}

/** The Bot API refused a call: `error_code` and `description` as Telegram gave them. */
export class BotApiRefused extends Error {
  /** @param {string} method @param {number} code @param {string} description */
  constructor(method, code, description) {
    super(`${method} failed (${code}): ${description}`);
    this.name = "BotApiRefused";
    this.code = code;
    this.description = description;
  }
}

/**
 * A Bot API client for one token. A call that gets no answer throws an Error whose message is one sentence naming
 * the base URL (never the token), what to check and `rerun`, and whether anything was changed yet.
 * @param {{ base: string, token: string, rerun: string, baseFromEnv?: boolean }} options
 */
export function botApi({ base, token, rerun, baseFromEnv = false }) {
  const root = base.replace(/\/+$/, "");
  let changed = false;
  /**
   * @param {string} method
   * @param {Record<string, unknown>} [params]
   * @returns {Promise<any>}
   */
  async function call(method, params = {}) {
    let response;
    try {
      response = await fetch(`${root}/bot${token}/${method}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(params),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const check = `check this machine's network connection${baseFromEnv ? " and TELEGRAM_API_BASE" : ""}`;
      const state = changed ? `The steps before ${method} were done; running it again is safe.` : "Nothing was changed.";
      throw new Error(`Could not reach the Bot API at ${root} (${whyUnreachable(error, TIMEOUT_MS)}): ${check}, then run ${rerun} again. ${state}`);
    }
    /** @type {{ ok?: boolean, result?: unknown, error_code?: number, description?: string }} */
    const body = /** @type {any} */ (await response.json().catch(() => ({})));
    if (!body.ok) throw new BotApiRefused(method, body.error_code ?? response.status, body.description ?? "no description");
    if (method.startsWith("set")) changed = true;
    return body.result;
  }
  return { call, base: root };
}

/** @typedef {ReturnType<typeof botApi>} BotApi */

/**
 * Points the bot at the Worker: the webhook with its secret and update types, the menu in each language, and the menu
 * button when `publicUrl` is https. Returns what it set, for one line.
 * @param {BotApi} api @param {{ publicUrl: string, secret: string }} options
 */
export async function setUpBot(api, { publicUrl, secret }) {
  await api.call("setWebhook", { url: webhookUrl(publicUrl), secret_token: secret, allowed_updates: ALLOWED_UPDATES, drop_pending_updates: false });
  // English for every user whose app's language has no menu of its own, and one menu per language.
  for (const { languageCode, commands } of await menus())
    await api.call("setMyCommands", { commands, ...(languageCode === null ? {} : { language_code: languageCode }) });
  const button = menuButton(publicUrl);
  // The bot's default menu button (every private chat): the Scheduler Mini App, which Telegram opens only over https.
  if (button !== null) await api.call("setChatMenuButton", { menu_button: button });
  return { button };
}

/** What the menu-button part of a line says. @param {ReturnType<typeof menuButton>} button */
export const buttonText = (button) =>
  button !== null ? `the menu button opens ${button.web_app.url}` : "no menu button (the Mini App needs an https PUBLIC_URL)";

/**
 * The languages whose menu differs from the bot's (read back with getMyCommands), in LANGUAGES order.
 * @param {BotApi} api
 */
export async function menusOff(api) {
  const off = [];
  for (const { lang, languageCode, commands } of await menus()) {
    const set = await api.call("getMyCommands", languageCode === null ? {} : { language_code: languageCode });
    if (JSON.stringify(set) !== JSON.stringify(commands)) off.push(lang);
  }
  return off;
}

/**
 * Whether the bot's default menu button is the one `publicUrl` should have.
 * @param {BotApi} api @param {string} publicUrl
 */
export async function buttonMatches(api, publicUrl) {
  const want = menuButton(publicUrl);
  const got = /** @type {{ type?: string, text?: string, web_app?: { url?: string } }} */ (await api.call("getChatMenuButton", {}));
  if (want === null) return got?.type !== "web_app";
  return got?.type === "web_app" && got.text === want.text && got.web_app?.url === want.web_app.url;
}

/**
 * What `getWebhookInfo`'s `last_error_message` means and what to do, in one sentence.
 * @param {string} message
 */
export function explainWebhookError(message) {
  const said = `Telegram says "${message}"`;
  if (/\b401\b/.test(message))
    return `${said}: the Worker refused the webhook's secret (it answers 401 when X-Telegram-Bot-Api-Secret-Token differs from TELEGRAM_WEBHOOK_SECRET); run npm run deploy again, which sets both to the one in .wrangler/production/secrets.env.`;
  if (/\b403\b/.test(message))
    return `${said}: something in front of the Worker refused Telegram (Cuckoo answers a wrong secret with 401, not 403), most likely a Cloudflare WAF rule, Bot Fight Mode or Under Attack Mode on the zone; let POST /telegram/webhook through (a WAF skip rule for that path) or turn Bot Fight Mode off.`;
  if (/\b404\b/.test(message))
    return `${said}: the Worker has no webhook at that address (TELEGRAM_BOT_TOKEN is not set on it, so it runs in transcript mode, or the URL names another Worker); run npm run deploy with TELEGRAM_BOT_TOKEN.`;
  if (/\b5\d\d\b/.test(message)) return `${said}: the Worker failed; /healthz lists invalid vars, and npx wrangler tail shows the error.`;
  if (/ssl|certificate|tls/i.test(message))
    return `${said}: Telegram could not make a TLS connection; a workers.dev address has a valid certificate, so check the custom domain's certificate (Cloudflare → SSL/TLS → Edge Certificates).`;
  if (/resolve|name or service|dns/i.test(message))
    return `${said}: Telegram could not resolve the host name; check the DNS record of the custom domain in PUBLIC_URL, or deploy with the workers.dev address.`;
  if (/refused|timed? ?out|timeout|connect/i.test(message))
    return `${said}: Telegram could not connect to the Worker; check that PUBLIC_URL's host serves this Worker over https on port 443.`;
  return `${said}; see docs/doctor.md#the-webhook.`;
}

/**
 * What a group needs, in a few lines (privacy mode: Telegram's default, which getMe reports).
 * @param {string} bot @param {boolean} readsAll @param {string | null} appName @param {string} publicUrl
 */
export function groupsText(bot, readsAll, appName, publicUrl) {
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
