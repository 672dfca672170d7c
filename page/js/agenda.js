// @ts-check
/**
 * @module The chat's daily agenda (`GET`/`PUT …/agenda`, docs/telegram.md#agenda, docs/page.md): shown beside its
 * quiet hours, and set in a dialog of one time of day in the chat's zone, or turned off. At that time the bot sends
 * one message listing the rest of the day's runs, nothing on a day with none.
 */
import { ApiError, api, chatPath } from "./api.js";
import { byId, sentence } from "./dom.js";
import { state } from "./state.js";
import { onLanguage, t } from "./texts.js";

const box = byId("agenda-box");
const shown = byId("agenda-text");
const dialog = /** @type {HTMLDialogElement} */ (byId("agenda-dialog"));
const form = /** @type {HTMLFormElement} */ (byId("agenda-form"));
const time = /** @type {HTMLInputElement} */ (byId("agenda-time"));
const error = byId("agenda-error");

/** The agenda's time of day (`HH:mm`), or null for none. @typedef {string | null} AgendaTime */

/** The time last shown, written again in another language (undefined: a failure is shown, or nothing yet). @type {AgendaTime | undefined} */
let last;

/** @param {AgendaTime} agenda */
function show(agenda) {
  last = agenda;
  shown.textContent = t().agendaLine(agenda ?? t().agendaOff);
}

onLanguage(() => {
  if (last !== undefined) show(last);
  if (dialog.open) byId("agenda-about").textContent = t().agendaAbout(state.zone);
});

/** Reads the chosen chat's daily agenda into the bar (hidden while no chat is chosen). */
export async function loadAgenda() {
  const chatId = state.chatId;
  box.hidden = chatId === null;
  if (chatId === null) return;
  try {
    const { agenda } = await api("GET", `${chatPath(chatId)}/agenda`);
    if (chatId === state.chatId) show(agenda);
  } catch (e) {
    last = undefined;
    shown.textContent = t().agendaLine(sentence(e));
  }
}

/** The chat the dialog was opened for: a save goes there. @type {string | null} */
let dialogChat = null;

/** Sets it (`agenda`, or null to turn it off) and shows the API's answer; a refusal stays in the dialog. @param {AgendaTime} agenda */
async function save(agenda) {
  const chatId = dialogChat;
  if (!chatId) return;
  error.textContent = "";
  time.removeAttribute("aria-invalid");
  try {
    const answer = await api("PUT", `${chatPath(chatId)}/agenda`, { agenda });
    show(answer.agenda);
    dialog.close();
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) time.setAttribute("aria-invalid", "true");
    error.textContent = sentence(e);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void save(time.value);
});
byId("agenda-off").addEventListener("click", () => void save(null));
byId("agenda-cancel").addEventListener("click", () => dialog.close());

/** Opens the dialog with the chat's agenda time, or 08:00 to start from. */
export async function openAgenda() {
  const chatId = state.chatId;
  if (!chatId) return;
  dialogChat = chatId;
  error.textContent = "";
  time.removeAttribute("aria-invalid");
  byId("agenda-about").textContent = t().agendaAbout(state.zone);
  let agenda = null;
  try {
    agenda = (await api("GET", `${chatPath(chatId)}/agenda`)).agenda;
  } catch (e) {
    error.textContent = sentence(e);
  }
  // Another chat was chosen while its agenda was read: the dialog is for none.
  if (chatId !== state.chatId) return;
  time.value = agenda ?? "08:00";
  dialog.showModal();
  time.focus();
}
