// @ts-check
/**
 * @module The chat's calendar feed in the chat bar (docs/calendar.md, docs/page.md): whether it has one (`GET
 * …/calendar`), Make calendar feed or Replace address (`POST …/calendar`) and Turn off (`DELETE …/calendar`), the
 * last two asked first. The address is shown once, right after it is made: in a read-only field with Copy and how
 * to subscribe, until it is replaced or turned off or another chat is shown. Nothing keeps it: no variable, no
 * storage, no address, and the field's autocomplete is off; after a reload the bar only says the chat has a feed.
 * A refusal (a group's member who is not its admin, in the Mini App) shows the API's sentence under the row.
 */
import { api, chatPath } from "./api.js";
import { askFirst } from "./confirm.js";
import { byId, sentence } from "./dom.js";
import { state } from "./state.js";
import { onLanguage, t } from "./texts.js";

const box = byId("calendar-box");
const line = byId("calendar-text");
const makeButton = /** @type {HTMLButtonElement} */ (byId("calendar-make"));
const replaceButton = /** @type {HTMLButtonElement} */ (byId("calendar-replace"));
const offButton = /** @type {HTMLButtonElement} */ (byId("calendar-off"));
const shown = byId("calendar-shown");
const urlInput = /** @type {HTMLTextAreaElement} */ (byId("calendar-url"));
const copied = byId("calendar-copied");
const error = byId("calendar-error");

/** Whether the shown chat has a feed (undefined: not known, a failure is shown or nothing yet). @type {boolean | undefined} */
let has;
/** The chat the row shows: what its buttons change. @type {string | null} */
let rowChat = null;
/** Counts the chats shown: an answer for an earlier one shows nothing. */
let seq = 0;

/** The row's words and the buttons that fit; a failure to read it keeps its sentence in the line. */
function writeState() {
  const words = t();
  if (has !== undefined) line.textContent = words.calendarLine(has ? words.calendarOn : words.calendarOff);
  makeButton.hidden = has !== false;
  replaceButton.hidden = has !== true;
  offButton.hidden = has !== true;
}

/** Takes the address out of the page. */
function clear() {
  urlInput.value = "";
  shown.hidden = true;
  copied.textContent = "";
}

onLanguage(writeState);

/** Reads the chosen chat's feed state into the bar (hidden while no chat is chosen); an address shown leaves. */
export async function loadCalendar() {
  const chatId = state.chatId;
  const mine = ++seq;
  rowChat = chatId;
  has = undefined;
  clear();
  error.textContent = "";
  writeState();
  line.textContent = "";
  box.hidden = chatId === null;
  if (chatId === null) return;
  try {
    const answer = await api("GET", `${chatPath(chatId)}/calendar`);
    if (mine !== seq) return;
    has = answer.calendar === true;
    writeState();
  } catch (e) {
    if (mine !== seq) return;
    line.textContent = t().calendarLine(sentence(e));
  }
}

/** Runs a change with the buttons disabled; a refusal is shown under the row. @param {() => Promise<void>} request */
async function busy(request) {
  error.textContent = "";
  for (const b of [makeButton, replaceButton, offButton]) b.disabled = true;
  try {
    await request();
  } catch (e) {
    error.textContent = sentence(e);
  } finally {
    for (const b of [makeButton, replaceButton, offButton]) b.disabled = false;
  }
}

/** Makes the feed's address (or a new one in place of the old) and shows it, once. */
function make() {
  const chatId = rowChat;
  if (!chatId) return;
  const mine = seq;
  void busy(async () => {
    /** @type {{ url: string }} */
    const { url } = await api("POST", `${chatPath(chatId)}/calendar`);
    if (mine !== seq) return;
    has = true;
    writeState();
    urlInput.value = url;
    copied.textContent = "";
    shown.hidden = false;
    urlInput.focus();
    urlInput.select();
  });
}

makeButton.addEventListener("click", make);

replaceButton.addEventListener("click", async () => {
  const words = t();
  if (await askFirst({ title: words.calendarReplaceTitle, text: words.calendarReplaceText, confirm: "replaceAddress", keep: "cancel" })) make();
});

offButton.addEventListener("click", async () => {
  const chatId = rowChat;
  const mine = seq;
  const words = t();
  if (!chatId || !(await askFirst({ title: words.calendarOffTitle, text: words.calendarOffText, confirm: "turnOff", keep: "cancel" }))) return;
  void busy(async () => {
    await api("DELETE", `${chatPath(chatId)}/calendar`);
    if (mine !== seq) return;
    has = false;
    // The address shown (if any) finds nothing now.
    clear();
    writeState();
    makeButton.focus();
  });
});

/** Copies the address, saying so; where the clipboard is refused, it is selected for the person to copy. */
byId("calendar-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(urlInput.value);
    copied.textContent = t().copied;
  } catch {
    urlInput.focus();
    urlInput.select();
    copied.textContent = t().copyFailed;
  }
});
