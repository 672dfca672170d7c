// @ts-check
/**
 * @module The chat picker (admin mode only): a `<select>` labelled "Chat" whose options are the directory's chats
 * (`GET /admin/chats`, values are chat ids), and a form that opens any chat id, also one with no jobs yet.
 */
import { api } from "./api.js";
import { byId, h } from "./dom.js";
import { CHAT_ID, state } from "./state.js";

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
const label = (c) => `${c.chatId} · ${c.jobs === 1 ? "1 job" : `${c.jobs} jobs`}${c.blocked ? " · blocked" : ""}`;

/**
 * Fills the picker (the current chat kept even when the directory does not list it yet) and returns the chats.
 * @returns {Promise<ChatSummary[]>}
 */
export async function loadChats() {
  const chats = await directoryChats();
  const options = chats.map((c) => h("option", { value: c.chatId }, [label(c)]));
  if (state.chatId && !chats.some((c) => c.chatId === state.chatId)) options.unshift(h("option", { value: state.chatId }, [`${state.chatId} · no jobs yet`]));
  if (!state.chatId) options.unshift(h("option", { value: "" }, ["Choose a chat"]));
  select.replaceChildren(...options);
  select.value = state.chatId ?? "";
  return chats;
}

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
      error.textContent = "A chat id is a decimal Telegram id, such as 123456789 or -1001234567890.";
      input.setAttribute("aria-invalid", "true");
      return;
    }
    error.textContent = "";
    input.removeAttribute("aria-invalid");
    input.value = "";
    choose(id);
  });
}
