// @ts-check
/**
 * @module The chat's quiet hours (`GET`/`PUT …/quiet`, docs/telegram.md, docs/page.md): shown beside its zone, and set in a dialog
 * of two times of day in the chat's zone (a window that ends before it starts runs across midnight), or turned
 * off. Inside them every message arrives without a notification sound; nothing is held back.
 */
import { ApiError, api, chatPath } from "./api.js";
import { byId, sentence } from "./dom.js";
import { state } from "./state.js";
import { onLanguage, t } from "./texts.js";

const box = byId("quiet-box");
const shown = byId("quiet-text");
const dialog = /** @type {HTMLDialogElement} */ (byId("quiet-dialog"));
const form = /** @type {HTMLFormElement} */ (byId("quiet-form"));
const from = /** @type {HTMLInputElement} */ (byId("quiet-from"));
const to = /** @type {HTMLInputElement} */ (byId("quiet-to"));
const error = byId("quiet-error");

/** @typedef {{ from: string, to: string } | null} Quiet */

/** The hours last shown, written again in another language (undefined: a failure is shown, or nothing yet). @type {Quiet | undefined} */
let last;

/** @param {Quiet} quiet */
function show(quiet) {
  last = quiet;
  shown.textContent = t().quietLine(quiet ? `${quiet.from}–${quiet.to}` : t().quietOff);
}

onLanguage(() => {
  if (last !== undefined) show(last);
  if (dialog.open) byId("quiet-about").textContent = t().quietAbout(state.zone);
});

/** Reads the chosen chat's quiet hours into the bar (hidden while no chat is chosen). */
export async function loadQuiet() {
  const chatId = state.chatId;
  box.hidden = chatId === null;
  if (chatId === null) return;
  try {
    const { quiet } = await api("GET", `${chatPath(chatId)}/quiet`);
    if (chatId === state.chatId) show(quiet);
  } catch (e) {
    last = undefined;
    shown.textContent = t().quietLine(sentence(e));
  }
}

/** The chat the dialog was opened for: a save goes there. @type {string | null} */
let dialogChat = null;

/** Sets them (`quiet`, or null to turn them off) and shows the API's answer; a refusal stays in the dialog. @param {Quiet} quiet */
async function save(quiet) {
  const chatId = dialogChat;
  if (!chatId) return;
  error.textContent = "";
  for (const input of [from, to]) input.removeAttribute("aria-invalid");
  try {
    const answer = await api("PUT", `${chatPath(chatId)}/quiet`, { quiet });
    show(answer.quiet);
    dialog.close();
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) for (const input of [from, to]) input.setAttribute("aria-invalid", "true");
    error.textContent = sentence(e);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void save({ from: from.value, to: to.value });
});
byId("quiet-off").addEventListener("click", () => void save(null));
byId("quiet-cancel").addEventListener("click", () => dialog.close());

/** Opens the dialog with the chat's quiet hours, or 22:00–07:00 to start from. */
export async function openQuiet() {
  const chatId = state.chatId;
  if (!chatId) return;
  dialogChat = chatId;
  error.textContent = "";
  byId("quiet-about").textContent = t().quietAbout(state.zone);
  let quiet = null;
  try {
    quiet = (await api("GET", `${chatPath(chatId)}/quiet`)).quiet;
  } catch (e) {
    error.textContent = sentence(e);
  }
  // Another chat was chosen while its hours were read: the dialog is for none.
  if (chatId !== state.chatId) return;
  from.value = quiet?.from ?? "22:00";
  to.value = quiet?.to ?? "07:00";
  dialog.showModal();
  from.focus();
}
