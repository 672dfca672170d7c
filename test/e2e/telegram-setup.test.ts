/**
 * `npm run telegram:setup` (docs/telegram.md, issue 14 item 7), run as a user runs it: against the local Bot API stub
 * it sets the webhook with its secret and the menu; with no Bot API to reach it says so in one sentence, with
 * the reason and what to do, instead of `fetch failed`.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommandWords, commandMenu, LISTED } from "../../src/telegram/menu.js";
import { startTelegramStub, type TelegramStub } from "../stub/telegram-stub.js";
import { freePort } from "./harness.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TOKEN = "123456789:AAE_e2e-setup_abcdefghijklmnopq";
let stub: TelegramStub;

beforeAll(async () => {
  stub = await startTelegramStub();
});

afterAll(async () => {
  await stub?.close();
});

/** Runs the script with these vars; its exit code and what it printed. */
function setup(vars: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      TELEGRAM_BOT_TOKEN: TOKEN,
      TELEGRAM_WEBHOOK_SECRET: "setup-secret",
      PUBLIC_URL: "https://cuckoo.example.workers.dev/",
      ...vars,
    };
    execFile(process.execPath, [path.join(root, "scripts", "telegram-setup.mjs")], { cwd: root, env, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The lines about groups, for the stub's bot (privacy mode on, as getMe says) and no MINI_APP_NAME. */
const groups = (publicUrl: string) =>
  [
    "Groups: add each group's chat id to ALLOWED_CHAT_IDS (it is in the webhook's updates, negative, such as -1001234567890); its admins and the users in ALLOWED_USER_IDS change its jobs, its members read them.",
    "Privacy mode is on for @CuckooTestBot (Telegram's default): in a group it receives only /command@CuckooTestBot, replies to its messages and service messages. For @mentions and bare /commands, make @CuckooTestBot an admin of the group, or turn privacy mode off (@BotFather, /setprivacy, Disable) and add the bot to the group again.",
    `To open the Mini App from a group, register it with @BotFather (/newapp, Web App URL ${publicUrl}/app, a short name such as scheduler) and set MINI_APP_NAME to that short name.`,
    "",
  ].join("\n");

/** The bot's languages: its menu is set in each. */
const LANGS = ["en", "de", "fr", "es", "pt", "it", "nl", "ru"];

describe("npm run telegram:setup", () => {
  it("with MINI_APP_NAME says the link /jobs gives in a group", async () => {
    const token = "123456789:AAE_e2e-setup_app_abcdefghijklmnopq";
    const run = await setup({ TELEGRAM_API_BASE: stub.url, TELEGRAM_BOT_TOKEN: token, MINI_APP_NAME: "scheduler" });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n").at(-2)).toBe("In a group, /jobs links to the Mini App: https://t.me/CuckooTestBot/scheduler?startapp=<group id>.");
  });

  it("sets the webhook, its secret, the menu and the menu button that opens the Mini App, and says so", async () => {
    const run = await setup({ TELEGRAM_API_BASE: stub.url });
    expect(run).toEqual({
      code: 0,
      stdout: `@CuckooTestBot: webhook set to https://cuckoo.example.workers.dev/telegram/webhook, ${LISTED.length} commands in the menu in en, de, fr, es, pt, it, nl, ru, the menu button opens https://cuckoo.example.workers.dev/app.\n${groups("https://cuckoo.example.workers.dev")}`,
      stderr: "",
    });
    expect(stub.calls({ token: TOKEN }).map((c) => c.method)).toEqual(["getMe", "setWebhook", ...LANGS.map(() => "setMyCommands"), "setChatMenuButton"]);
    expect(stub.calls({ token: TOKEN, method: "setChatMenuButton" })[0]!.params).toEqual({
      menu_button: { type: "web_app", text: "Scheduler", web_app: { url: "https://cuckoo.example.workers.dev/app" } },
    });
    expect(stub.calls({ token: TOKEN, method: "setWebhook" })[0]!.params).toEqual({
      url: "https://cuckoo.example.workers.dev/telegram/webhook",
      secret_token: "setup-secret",
      allowed_updates: ["message", "edited_message", "callback_query", "my_chat_member"],
      drop_pending_updates: false,
    });
    // The menu in English for every app, and in each of the other seven for an app in that language.
    const menus = await Promise.all(
      LANGS.map(async (lang) => {
        const table = (await import(`../../src/texts/${lang}.ts`)) as { texts: { help: CommandWords } };
        return { commands: commandMenu(table.texts.help), ...(lang === "en" ? {} : { language_code: lang }) };
      }),
    );
    expect(stub.calls({ token: TOKEN, method: "setMyCommands" }).map((c) => c.params)).toEqual(menus);
    expect(new Set(menus.map((m) => m.commands.find((c) => c.command === "remind")!.description)).size).toBe(LANGS.length);
  });

  it("sets no menu button when PUBLIC_URL is not https (Telegram opens Mini Apps only over https), and says so", async () => {
    const token = "123456789:AAE_e2e-setup_http_abcdefghijklmnop";
    const run = await setup({ TELEGRAM_API_BASE: stub.url, TELEGRAM_BOT_TOKEN: token, PUBLIC_URL: "http://192.168.1.20:8787" });
    expect(run).toEqual({
      code: 0,
      stdout: `@CuckooTestBot: webhook set to http://192.168.1.20:8787/telegram/webhook, ${LISTED.length} commands in the menu in en, de, fr, es, pt, it, nl, ru, no menu button (the Mini App needs an https PUBLIC_URL).\n${groups("http://192.168.1.20:8787")}`,
      stderr: "",
    });
    expect(stub.calls({ token }).map((c) => c.method)).toEqual(["getMe", "setWebhook", ...LANGS.map(() => "setMyCommands")]);
  });

  it("says in one sentence that the Bot API cannot be reached, and why, instead of fetch failed", async () => {
    const closed = await freePort();
    const run = await setup({ TELEGRAM_API_BASE: `http://127.0.0.1:${closed}` });
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `Could not reach the Bot API at http://127.0.0.1:${closed} (the connection was refused): check this machine's network connection and TELEGRAM_API_BASE, then run npm run telegram:setup again. Nothing was changed.\n`,
    });
    expect(run.stderr).not.toContain(TOKEN);
  });
});
