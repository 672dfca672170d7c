#!/usr/bin/env node
/**
 * `npm run telegram:setup`: points the bot at this Worker (DESIGN §6). Sets the webhook to
 * `${PUBLIC_URL}/telegram/webhook` with the secret Telegram sends back in X-Telegram-Bot-Api-Secret-Token,
 * only the update types the bot reads, and the command menu. Reads TELEGRAM_BOT_TOKEN,
 * TELEGRAM_WEBHOOK_SECRET and PUBLIC_URL from the environment (and TELEGRAM_API_BASE, default
 * https://api.telegram.org). Prints what it did; never prints the token.
 */
// The menu is the bot's own command list (Node 22 strips the types of this dependency-free module).
const { COMMAND_HELP } = await import("../src/telegram/menu.ts");

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
  const response = await fetch(`${base}/bot${token}/${method}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(params),
  });
  /** @type {{ ok?: boolean, result?: unknown, error_code?: number, description?: string }} */
  const body = /** @type {any} */ (await response.json().catch(() => ({})));
  if (!body.ok) throw new Error(`${method} failed (${body.error_code ?? response.status}): ${body.description ?? "no description"}`);
  return body.result;
}

try {
  const me = await call("getMe", {});
  await call("setWebhook", {
    url: `${publicUrl}/telegram/webhook`,
    secret_token: secret,
    allowed_updates: ["message", "callback_query"],
    drop_pending_updates: false,
  });
  await call("setMyCommands", { commands: COMMAND_HELP.map(({ command, description }) => ({ command, description })) });
  console.log(`@${me.username}: webhook set to ${publicUrl}/telegram/webhook, ${COMMAND_HELP.length} commands in the menu.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
