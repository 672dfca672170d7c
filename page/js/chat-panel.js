// @ts-check
/**
 * @module The chat panel of transcript mode (DESIGN §2, §10): the chat's transcript (`GET …/messages`) and a
 * form that writes as the chat's user (`POST …/messages`, routed like a Telegram message, commands included).
 * Replies come from the agent a moment later, so the panel reads the transcript again a few times after a send.
 */
import { api, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { now, state } from "./state.js";
import { inZone } from "./time.js";

const panel = byId("chat-panel");
const list = byId("transcript");
const form = /** @type {HTMLFormElement} */ (byId("chat-form"));
const text = /** @type {HTMLTextAreaElement} */ (byId("chat-text"));
const error = byId("chat-error");
/** @type {ReturnType<typeof setTimeout>[]} */
let timers = [];

const WHO = /** @type {Record<string, string>} */ ({ user: "You", bot: "Bot", prompt: "Prompt to the agent", tool: "Tool call" });

/** @typedef {{ id: string, at: string, role: string, source: string, text: string }} Entry */

async function load() {
  const chatId = state.chatId;
  if (!chatId || panel.hidden) return;
  try {
    const { messages } = await api("GET", `${chatPath(chatId)}/messages?limit=100`);
    if (chatId !== state.chatId) return;
    list.replaceChildren(
      ...(messages.length
        ? messages.map((/** @type {Entry} */ m) =>
            h("li", { class: m.role }, [h("span", { class: "who" }, [`${WHO[m.role] ?? m.role} · ${inZone(Date.parse(m.at), state.zone, now())}`]), m.text]),
          )
        : [h("li", { class: "muted" }, ["No messages yet."])]),
    );
    list.scrollTop = list.scrollHeight;
  } catch (e) {
    error.textContent = sentence(e);
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.chatId || text.value.trim() === "") return;
  error.textContent = "";
  try {
    await api("POST", `${chatPath(state.chatId)}/messages`, { text: text.value });
    text.value = "";
    await load();
    for (const t of timers) clearTimeout(t);
    timers = [700, 2000, 5000].map((ms) => setTimeout(load, ms));
  } catch (e) {
    error.textContent = sentence(e);
  }
});

/** Shows the panel (transcript mode with a chat chosen) and reads the transcript, or hides it. */
export function showChatPanel() {
  panel.hidden = !(state.transcriptMode && state.chatId);
  if (!panel.hidden) void load();
}
