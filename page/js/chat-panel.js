// @ts-check
/**
 * @module The chat panel of transcript mode (docs/api.md, docs/page.md): the chat as Telegram would show it. The transcript
 * (`GET …/messages`), each bot entry rendered as Telegram renders its Markdown (`telegram-html.js`) with its
 * buttons, which work as a tap in Telegram does (`POST …/messages { press }`, the notice it answers shown
 * above the form), and a form that writes as the chat's user (`POST …/messages`, routed like a Telegram message,
 * commands included). What a message or a press changes in the jobs (a `/remind`, an offer's Create, a snooze)
 * is in the list at once: the page reads it again as soon as the answer is back. The agent's replies come a
 * moment later, so the panel reads the transcript again a few times after a send.
 */
import { api, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { now, state } from "./state.js";
import { telegramHtml } from "./telegram-html.js";
import { onLanguage, t } from "./texts.js";
import { inZone } from "./time.js";

const panel = byId("chat-panel");
const list = byId("transcript");
const form = /** @type {HTMLFormElement} */ (byId("chat-form"));
const text = /** @type {HTMLTextAreaElement} */ (byId("chat-text"));
const error = byId("chat-error");
const notice = byId("chat-notice");
/** @type {ReturnType<typeof setTimeout>[]} */
let timers = [];
/** What else the page shows of the chat (its jobs), read again after the chat changed it. */
let changed = () => {};

/**
 * @typedef {{ text: string, data?: string, webApp?: string }} Button
 * @typedef {{ id: string, at: string, role: string, source: string, text: string, html?: string, buttons?: Button[][] }} Entry
 */

/** A bot entry's buttons, row by row; a Mini App button (it opens this page in Telegram) is not shown. @param {Button[][]} rows */
function buttonRows(rows) {
  const shown = rows.map((row) => row.filter((b) => typeof b.data === "string")).filter((row) => row.length > 0);
  if (shown.length === 0) return null;
  return h(
    "div",
    { class: "entry-buttons", role: "group", "aria-label": t().buttons },
    shown.map((row) =>
      h(
        "div",
        { class: "entry-row" },
        row.map((b) => {
          const button = h("button", { type: "button" }, [b.text]);
          button.addEventListener("click", () => void press(/** @type {string} */ (b.data)));
          return button;
        }),
      ),
    ),
  );
}

/** One entry: who and when, then a bot's message as Telegram shows it (anyone else's as written), and its buttons. @param {Entry} m */
function entry(m) {
  const body = h("div", { class: "entry-text" }, []);
  if (m.role === "bot" && typeof m.html === "string") body.append(telegramHtml(m.html));
  else body.textContent = m.text;
  const who = /** @type {Record<string, string>} */ (t().who);
  return h("li", { class: m.role }, [
    h("span", { class: "who" }, [`${Object.hasOwn(who, m.role) ? who[m.role] : m.role} · ${inZone(Date.parse(m.at), state.zone, now())}`]),
    body,
    m.buttons ? buttonRows(m.buttons) : null,
  ]);
}

/** The chat whose transcript the panel shows: what is written or pressed in it goes there. @type {string | null} */
let shownChat = null;

async function load() {
  const chatId = state.chatId;
  if (!chatId || panel.hidden) return;
  try {
    const { messages } = await api("GET", `${chatPath(chatId)}/messages?limit=100`);
    if (chatId !== state.chatId) return;
    shownChat = chatId;
    list.replaceChildren(...(messages.length ? messages.map(entry) : [h("li", { class: "muted" }, [t().noMessages])]));
    list.scrollTop = list.scrollHeight;
  } catch (e) {
    error.textContent = sentence(e);
  }
}

/** The transcript and the jobs read again now, and the transcript a few times more for the agent's reply. */
async function refresh() {
  await load();
  changed();
  for (const t of timers) clearTimeout(t);
  timers = [700, 2000, 5000].map((ms) => setTimeout(load, ms));
}

/** A button pressed, as a tap in Telegram: its notice shown, the chat and its jobs read again. @param {string} data */
async function press(data) {
  if (!shownChat) return;
  error.textContent = "";
  try {
    const { answer } = await api("POST", `${chatPath(shownChat)}/messages`, { press: data });
    notice.textContent = answer;
    await refresh();
  } catch (e) {
    error.textContent = sentence(e);
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!shownChat || text.value.trim() === "") return;
  error.textContent = "";
  notice.textContent = "";
  try {
    await api("POST", `${chatPath(shownChat)}/messages`, { text: text.value });
    text.value = "";
    await refresh();
  } catch (e) {
    error.textContent = sentence(e);
  }
});

// Who wrote each entry and when, in the chat's language: the transcript is read again (its messages stay as written).
onLanguage(() => void load());

/** `onChange` runs when something written or pressed in the panel may have changed the chat's jobs. @param {() => void} onChange */
export function wireChatPanel(onChange) {
  changed = onChange;
}

/** Shows the panel (transcript mode with a chat chosen) and reads the transcript, or hides it. */
export function showChatPanel() {
  panel.hidden = !(state.transcriptMode && state.chatId);
  // Another chat's transcript is not left to be written to while this one's is read.
  if (shownChat !== state.chatId) {
    shownChat = null;
    list.replaceChildren();
  }
  if (!panel.hidden) void load();
}
