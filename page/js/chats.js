// @ts-check
/**
 * @module The chat picker (admin mode only): a `<select>` labelled "Chat" whose options are the directory's chats
 * (`GET /admin/chats`, values are chat ids), and a form that opens any chat id, also one with no jobs yet.
 */
import { api } from "./api.js";
import { byId, h } from "./dom.js";
import { CHAT_ID, state } from "./state.js";
import { onLanguage, t } from "./texts.js";

const select = /** @type {HTMLSelectElement} */ (byId("chat-select"));
const form = /** @type {HTMLFormElement} */ (byId("open-chat"));
const input = /** @type {HTMLInputElement} */ (byId("open-chat-id"));
const error = byId("open-chat-error");

/** @typedef {{ chatId: string, timeZone: string, jobs: number, nextRunAt: string | null, blocked: boolean }} ChatSummary */

/** The directory's chats, a page of 100 at a time (at most 1,000). @returns {Promise<ChatSummary[]>} */
async function directoryChats() {
  /** @type {ChatSummary[]} */
  const all = [];
  let cursor = null;
  for (let page = 0; page < 10; page++) {
    const answer = await api("GET", `/admin/chats?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    all.push(...answer.chats);
    cursor = answer.cursor;
    if (!cursor) break;
  }
  return all;
}

/** @param {ChatSummary} c */
const label = (c) => `${c.chatId} · ${t().jobCount(c.jobs)}${c.blocked ? ` · ${t().blocked}` : ""}`;

/** The chats last read, which the picker shows. @type {ChatSummary[]} */
let listed = [];

/** The picker's options for `chats`, in the page's language (the current chat kept even when they lack it). @param {ChatSummary[]} chats */
function fill(chats) {
  const options = chats.map((c) => h("option", { value: c.chatId }, [label(c)]));
  if (state.chatId && !chats.some((c) => c.chatId === state.chatId))
    options.unshift(h("option", { value: state.chatId }, [`${state.chatId} · ${t().noJobsYet}`]));
  if (!state.chatId) options.unshift(h("option", { value: "" }, [t().chooseChat]));
  select.replaceChildren(...options);
  select.value = state.chatId ?? "";
}

/**
 * Fills the picker (the current chat kept even when the directory does not list it yet) and returns the chats.
 * @returns {Promise<ChatSummary[]>}
 */
export async function loadChats() {
  const chats = await directoryChats();
  listed = chats;
  fill(chats);
  return chats;
}

// The open chat's language is the picker's too.
onLanguage(() => {
  if (state.mode === "admin") fill(listed);
});

/**
 * Wires the picker and the open form; `choose` is called with the chat id the user picked or opened.
 * @param {(chatId: string) => void} choose
 */
export function wireChats(choose) {
  select.addEventListener("change", () => {
    if (select.value) choose(select.value);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const id = input.value.trim();
    if (!CHAT_ID.test(id)) {
      error.textContent = t().badChatId;
      input.setAttribute("aria-invalid", "true");
      return;
    }
    error.textContent = "";
    input.removeAttribute("aria-invalid");
    input.value = "";
    choose(id);
  });
}
