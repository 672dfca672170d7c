// @ts-check
/**
 * @module The page as a Telegram Mini App (issue 18), loaded only in its one-chat mode (`/app`): Telegram's theme
 * on the page's variables, `ready()` and `expand()`, the sign-in with Telegram's signed `initData` (`POST
 * /app/session`; the session as a bearer header when the web view keeps no cookie), and Telegram's main button
 * (Create on the list, Save in the job dialog) and back button (closes the open dialog). Without
 * `window.Telegram.WebApp` (the page opened outside Telegram, or telegram-web-app.js did not load) the sign-in
 * says where to open it.
 */
import { api, useBearer } from "./api.js";
import { byId } from "./dom.js";
import { onLanguage, t } from "./texts.js";
import { themeVariables } from "./theme.js";

/**
 * @typedef {{ setText(text: string): void, show(): void, hide(): void, onClick(fn: () => void): void }} TgButton
 * @typedef {{ initData?: string, themeParams?: Record<string, unknown>, colorScheme?: string, ready?(): void, expand?(): void,
 *   onEvent?(name: string, fn: () => void): void, MainButton?: TgButton, BackButton?: Omit<TgButton, "setText"> }} WebApp
 */

/** Telegram's WebApp object, when telegram-web-app.js ran (or a test put one there); else null. @returns {WebApp | null} */
export function webApp() {
  const telegram = /** @type {{ Telegram?: { WebApp?: WebApp } }} */ (/** @type {unknown} */ (window)).Telegram;
  return telegram?.WebApp ?? null;
}

/** @type {string[]} */
let themed = [];

/** Telegram's theme on the page's CSS variables (again on every theme change). @param {WebApp} app */
function applyTheme(app) {
  const root = document.documentElement;
  // The page's own values first, so that a colour the new theme leaves out falls back to the page's.
  for (const name of themed) root.style.removeProperty(name);
  const own = getComputedStyle(root);
  const { vars, scheme } = themeVariables(app.themeParams ?? {}, (name) => own.getPropertyValue(name).trim());
  for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
  themed = Object.keys(vars);
  root.style.colorScheme = scheme ?? "";
}

/** The theme, then `ready()` (Telegram takes its placeholder away) and `expand()` (full height). @param {WebApp} app */
export function prepare(app) {
  applyTheme(app);
  app.onEvent?.("themeChanged", () => applyTheme(app));
  app.ready?.();
  app.expand?.();
}

/**
 * Signs in with Telegram's `initData`; resolves with `{ chatId, expiresAt, readOnly }` (`readOnly`: a group's member
 * who is not its admin). When the cookie did not stick (a web view or iframe that keeps no third-party cookies),
 * the session goes as a bearer header from then on.
 * @param {WebApp | null} app
 * @returns {Promise<{ chatId: string, expiresAt: string, readOnly: boolean }>}
 */
export async function signIn(app) {
  const initData = app?.initData;
  // No chat yet, so no chat's language: said in English.
  if (typeof initData !== "string" || initData === "") throw new Error(t().outsideTelegram);
  const reply = await api("POST", "/app/session", { initData });
  const access = await api("GET", "/admin/session").catch(() => null);
  if (access?.via !== "app" || access.chatId !== reply.chatId) useBearer(reply.session);
  return { chatId: reply.chatId, expiresAt: reply.expiresAt, readOnly: reply.readOnly === true };
}

/**
 * Telegram's main button does the page's main action: Create on the list, Save in the job dialog, hidden in
 * the others; the back button closes whichever dialog is open. The page's own Create and Save give way to it.
 * @param {WebApp} app
 * @param {() => void} create
 */
export function wireButtons(app, create) {
  const main = app.MainButton;
  const back = app.BackButton;
  const jobDialog = byId("job-dialog");
  const jobForm = /** @type {HTMLFormElement} */ (byId("job-form"));
  const save = /** @type {HTMLButtonElement} */ (byId("job-save"));
  const openDialog = () => /** @type {HTMLDialogElement | null} */ (document.querySelector("dialog[open]"));
  const update = () => {
    const open = openDialog();
    if (open) back?.show();
    else back?.hide();
    if (!main) return;
    if (open === jobDialog) main.setText(t().save);
    else main.setText(t().create);
    if (open && open !== jobDialog) main.hide();
    else main.show();
  };
  if (main) {
    document.documentElement.dataset.mainButton = "";
    main.onClick(() => {
      const open = openDialog();
      if (open === jobDialog && !save.disabled) jobForm.requestSubmit();
      else if (!open) create();
    });
  }
  back?.onClick(() => openDialog()?.close("cancel"));
  const observer = new MutationObserver(update);
  for (const dialog of document.querySelectorAll("dialog")) observer.observe(dialog, { attributes: true, attributeFilter: ["open"] });
  // The chat's language, known with its jobs: the main button's word in it.
  onLanguage(update);
  update();
}
