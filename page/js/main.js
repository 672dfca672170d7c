// @ts-check
/**
 * @module The Scheduler page's start and its one controller (docs/page.md): sign-in (or none, in open dev mode),
 * the chosen chat (picker in admin mode; in the one-chat mode of the Telegram Mini App, `/app`, the signed-in
 * user's own, with `telegram.js` loaded only then), the job list with its loading, empty, no-match and error
 * states, the actions, and the dialogs. Everything goes through the JSON API.
 */
import { loadAgenda, openAgenda } from "./agenda.js";
import { ApiError, api, chatPath } from "./api.js";
import { loadCalendar } from "./calendar.js";
import { showChatPanel, wireChatPanel } from "./chat-panel.js";
import { loadChats, wireChats } from "./chats.js";
import { askFirst } from "./confirm.js";
import { openJobDialog, zoneKnown } from "./dialog.js";
import { byId, h, sentence } from "./dom.js";
import { openHistory } from "./history.js";
import { openHook } from "./hook.js";
import { renderJobs } from "./jobs.js";
import { loadQuiet, openQuiet } from "./quiet.js";
import { CHAT_ID, state } from "./state.js";
import { suggestionCards } from "./suggestions.js";
import { onLanguage, t, useLanguage } from "./texts.js";
import { offerDeviceZone, openZone } from "./zone.js";

/** @typedef {import("./state.js").Job} Job */

const boot = byId("boot");
const login = byId("login");
const scheduler = byId("scheduler");
const listState = byId("list-state");
const list = byId("jobs");
const empty = byId("empty");
const search = /** @type {HTMLInputElement} */ (byId("search"));
const signOut = byId("sign-out");
const REFRESH_MS = 30_000;
let loadSeq = 0;
let started = false;

/** The page's mode: `admin` (every chat, a picker) unless the HTML says otherwise. */
state.mode = document.documentElement.dataset.mode === "chat" ? "chat" : "admin";

function showLogin() {
  if (state.mode === "chat") return void signInAgain();
  boot.hidden = true;
  scheduler.hidden = true;
  byId("chat-panel").hidden = true;
  signOut.hidden = true;
  showAccess("");
  login.hidden = false;
  byId("login-token").focus();
}

/** @param {string} message @param {() => void} [retry] */
function showListError(message, retry) {
  listState.className = "state error";
  listState.replaceChildren(message);
  if (retry) {
    const button = h("button", { type: "button" }, [t().tryAgain]);
    button.addEventListener("click", retry);
    listState.append(" ", button);
  }
}

/** The chosen chat's jobs, with the filter and search; renders the list or the fitting state. */
async function loadJobs() {
  const seq = ++loadSeq;
  const chatId = state.chatId;
  byId("zone-box").hidden = chatId === null;
  if (chatId === null) {
    // No chat open: the page speaks English.
    void useLanguage("en");
    list.replaceChildren();
    listState.replaceChildren();
    empty.hidden = false;
    return;
  }
  if (state.jobs.length === 0) {
    listState.className = "state";
    listState.textContent = t().loadingJobs;
  }
  list.setAttribute("aria-busy", "true");
  try {
    const params = new URLSearchParams({ category: state.category, q: state.q });
    const answer = await api("GET", `${chatPath(chatId)}/jobs?${params}`);
    if (seq !== loadSeq) return;
    // Soonest first, paused and finished last: the rows are numbered in this order.
    state.jobs = [...answer.jobs].sort(
      (a, b) => (a.nextRunAt === null ? Infinity : Date.parse(a.nextRunAt)) - (b.nextRunAt === null ? Infinity : Date.parse(b.nextRunAt)),
    );
    state.zone = answer.timeZone;
    zoneKnown(chatId, state.zone);
    state.serverNow = Date.parse(answer.now);
    state.readAt = Date.now();
    // The chat's language: the page's words, its dates and the previews' from now on (a switch writes all again).
    await useLanguage(answer.language);
    if (seq !== loadSeq) return;
    byId("zone-text").textContent = t().zoneLine(state.zone);
    // In Telegram, the device's own zone when the chat's differs (one tap sets it), to those who may set it.
    if (state.mode === "chat" && !state.readOnly) offerDeviceZone(() => void loadJobs());
    render();
  } catch (e) {
    if (seq !== loadSeq) return;
    if (e instanceof ApiError && e.status === 401) return showLogin();
    list.replaceChildren();
    empty.hidden = true;
    showListError(t().jobsNotLoaded(sentence(e)), () => void loadJobs());
  } finally {
    if (seq === loadSeq) list.removeAttribute("aria-busy");
  }
}

function render() {
  const filtered = state.q !== "" || state.category !== "";
  listState.className = "state";
  listState.replaceChildren();
  empty.hidden = !(state.jobs.length === 0 && !filtered);
  if (state.jobs.length === 0 && filtered) {
    const clear = h("button", { type: "button" }, [t().showAllJobs]);
    clear.addEventListener("click", () => {
      search.value = "";
      state.q = "";
      setCategory("");
    });
    listState.replaceChildren(t().noJobs(state.q, /** @type {"" | "one-time" | "recurring" | "monitoring" | "triggered"} */ (state.category)), " ", clear);
  }
  renderJobs(list, state.jobs, actions);
}

/** What the bar says of the access, by its key in the table (written again on a switch). @param {"" | "openDevMode" | "readOnly"} key */
function showAccess(key) {
  const access = byId("access");
  if (key === "") access.removeAttribute("data-t");
  else access.dataset.t = key;
  access.textContent = key === "" ? "" : t()[key];
}

/** The empty state's cards, in the page's language: each Use opens the dialog filled in. */
function showSuggestions() {
  byId("suggestions").replaceChildren(...suggestionCards((s) => create(s)));
}

// Another language (it comes with a chat's jobs, which are shown in it next): the cards in it too.
onLanguage(showSuggestions);

/** @param {string} category */
function setCategory(category) {
  state.category = category;
  for (const b of document.querySelectorAll(".filters button"))
    b.setAttribute("aria-pressed", String(/** @type {HTMLElement} */ (b).dataset.category === category));
  void loadJobs();
}

/** Runs an action on a job, then reads the list again; a refusal is shown in the list's state. @param {() => Promise<unknown>} act */
async function act(act) {
  try {
    await act();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return showLogin();
    showListError(sentence(e));
    return;
  }
  await loadJobs();
  showChatPanel();
}

/** @type {import("./jobs.js").Actions} */
const actions = {
  run: (job) => void act(() => api("POST", `${chatPath(job.chatId)}/jobs/${job.id}/run`)),
  toggle: (job) => void act(() => api("POST", `${chatPath(job.chatId)}/jobs/${job.id}/${job.enabled ? "pause" : "resume"}`)),
  edit: (job) =>
    openJobDialog({
      job,
      saved: (saved) => {
        void loadJobs();
        // Made one only its hook runs, and it has none: the Hook dialog, to make it.
        if ("trigger" in saved.schedule && !saved.hook) openHook(saved, { changed: () => void loadJobs() });
      },
    }),
  hook: (job) => openHook(job, { changed: () => void loadJobs() }),
  history: (job) => void openHistory(job),
  remove: (job) =>
    void askFirst({ title: t().deleteTitle(job.name), text: t().deleteText }).then((sure) => {
      if (sure) void act(() => api("DELETE", `${chatPath(job.chatId)}/jobs/${job.id}`)).then(refreshChats);
    }),
};

/** @param {import("./dialog.js").Prefill} [prefill] */
function create(prefill) {
  openJobDialog({
    prefill,
    saved: (job, chatId, hook) => {
      if (state.chatId !== chatId) choose(chatId);
      else void loadJobs();
      void refreshChats();
      // A job only its hook runs: its hook's URL, shown this once.
      if (hook) openHook(job, { changed: () => void loadJobs(), made: hook });
    },
  });
}

async function refreshChats() {
  if (state.mode !== "admin") return;
  try {
    await loadChats();
  } catch {
    // The picker keeps what it had; the list shows its own errors.
  }
}

/**
 * Shows `chatId`'s jobs (and its transcript in transcript mode), and names it in the address: a new history entry
 * when picked (`push`), the same entry at the start (`replace`), nothing when the address named it (`keep`).
 * @param {string} chatId
 * @param {"push" | "replace" | "keep"} [address]
 */
function choose(chatId, address = "push") {
  // A dialog opened for the chat shown before acts on nothing once another is shown.
  if (chatId !== state.chatId) {
    for (const open of document.querySelectorAll("dialog[open]")) /** @type {HTMLDialogElement} */ (open).close("cancel");
    list.replaceChildren();
  }
  state.chatId = chatId;
  state.jobs = [];
  // The Mini App's address carries Telegram's launch data in its fragment; its chat never changes anyway.
  const named = `#chat=${encodeURIComponent(chatId)}`;
  if (state.mode === "admin" && address !== "keep" && location.hash !== named) {
    if (address === "push") history.pushState(null, "", named);
    else history.replaceState(null, "", named);
  }
  void refreshChats();
  void loadJobs().then(showChatPanel);
  void loadQuiet();
  void loadAgenda();
  void loadCalendar();
}

/** The chat the address names: its id, `""` when it names none, null when what it names is no chat id. */
function chatInAddress() {
  const m = /^#chat=(.*)$/.exec(location.hash);
  if (!m) return "";
  let id = "";
  try {
    id = decodeURIComponent(m[1] ?? "");
  } catch {
    return null;
  }
  return CHAT_ID.test(id) ? id : null;
}

/**
 * The address changed (back, forward, a `#chat=` typed): the page shows the chat it names, or says it cannot and
 * shows none, so that nothing acts on a chat the address does not name. An address naming no chat gets the
 * shown one's back.
 */
function followAddress() {
  if (state.mode !== "admin" || !started || scheduler.hidden) return;
  const named = chatInAddress();
  if (named === "") {
    if (state.chatId) history.replaceState(null, "", `#chat=${encodeURIComponent(state.chatId)}`);
    return;
  }
  if (named !== null) {
    if (named !== state.chatId) choose(named, "keep");
    return;
  }
  for (const open of document.querySelectorAll("dialog[open]")) /** @type {HTMLDialogElement} */ (open).close("cancel");
  list.replaceChildren();
  state.chatId = null;
  state.jobs = [];
  void refreshChats();
  void loadJobs();
  void loadQuiet();
  void loadAgenda();
  void loadCalendar();
  showChatPanel();
  empty.hidden = true;
  const shown = location.hash.length > 60 ? `${location.hash.slice(0, 60)}…` : location.hash;
  showListError(t().notAChat(shown));
}
window.addEventListener("hashchange", followAddress);
window.addEventListener("popstate", followAddress);

/** Wires everything once, then shows the chosen chat. */
async function start() {
  boot.hidden = true;
  login.hidden = true;
  scheduler.hidden = false;
  if (!started) {
    started = true;
    let timer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
    search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        state.q = search.value.trim();
        void loadJobs();
      }, 200);
    });
    for (const b of document.querySelectorAll(".filters button"))
      b.addEventListener("click", () => setCategory(/** @type {HTMLElement} */ (b).dataset.category ?? ""));
    byId("create").addEventListener("click", () => create());
    byId("empty-create").addEventListener("click", () => create());
    showSuggestions();
    byId("zone-change").addEventListener("click", () => openZone(() => void loadJobs()));
    wireChats(choose);
    // A /remind written or a button pressed in the chat panel shows in the list at once.
    wireChatPanel(() => {
      void loadJobs();
      void refreshChats();
    });
    byId("quiet-change").addEventListener("click", () => openQuiet());
    byId("agenda-change").addEventListener("click", () => openAgenda());
    setInterval(() => {
      if (document.visibilityState === "visible" && !document.querySelector("dialog[open]") && !scheduler.hidden) void loadJobs().then(showChatPanel);
    }, REFRESH_MS);
  }
  const fromHash = state.mode === "admin" ? chatInAddress() : null;
  if (fromHash) state.chatId = fromHash;
  byId("chat-pick").hidden = state.mode !== "admin";
  byId("open-chat").hidden = state.mode !== "admin";
  if (state.mode === "admin") {
    try {
      const chats = await loadChats();
      if (state.chatId === null && chats[0]) state.chatId = chats[0].chatId;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return showLogin();
      showListError(t().chatsNotLoaded(sentence(e)), () => void start());
    }
  }
  if (state.chatId) choose(state.chatId, "replace");
  else await loadJobs();
}

byId("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ (byId("login-token"));
  const error = byId("login-error");
  error.textContent = "";
  try {
    await api("POST", "/admin/session", { token: input.value });
    input.value = "";
    signOut.hidden = false;
    await start();
  } catch (e) {
    error.textContent = sentence(e);
    input.setAttribute("aria-invalid", "true");
  }
});

signOut.addEventListener("click", async () => {
  try {
    await api("DELETE", "/admin/session");
  } finally {
    showLogin();
  }
});

/** The page cannot go on: the sentence in place of the list. @param {string} message */
function stop(message) {
  scheduler.hidden = true;
  boot.hidden = false;
  boot.className = "state error";
  boot.textContent = message;
}

let signedInAt = 0;

/** The Mini App's way in: Telegram's theme and buttons, then its signed initData for a session of the user's chat. */
async function startMiniApp() {
  signedInAt = Date.now();
  const telegram = await import("./telegram.js");
  const app = telegram.webApp();
  if (app && !started) telegram.prepare(app);
  try {
    const { chatId, readOnly } = await telegram.signIn(app);
    state.chatId = chatId;
    setReadOnly(readOnly);
    if (app && !started && !readOnly) telegram.wireButtons(app, () => create());
    await start();
  } catch (e) {
    stop(sentence(e));
  }
}

/**
 * A group's member who is not its admin reads its jobs: nothing that changes them is offered (the server refuses
 * them all the same). @param {boolean} readOnly
 */
function setReadOnly(readOnly) {
  state.readOnly = readOnly;
  for (const id of ["create", "empty-create", "suggestions", "zone-change", "quiet-change", "agenda-change", "calendar-actions"]) byId(id).hidden = readOnly;
  showAccess(readOnly ? "readOnly" : "");
}

/** A Mini App session that ended: sign in again with Telegram's initData, at most once a minute. */
function signInAgain() {
  if (Date.now() - signedInAt < 60_000) return stop(t().sessionEnded);
  void startMiniApp();
}

/** Which way in: open dev mode, a session, or a sign-in first (in the Mini App, Telegram's). */
async function main() {
  try {
    const health = await api("GET", "/healthz");
    state.transcriptMode = health.telegram === "off";
  } catch {
    // /healthz answers 503 with the config's errors; the admin API says the same where it matters.
  }
  if (state.mode === "chat") return startMiniApp();
  try {
    const access = await api("GET", "/admin/session");
    signOut.hidden = access.via !== "cookie";
    showAccess(access.via === "open" ? "openDevMode" : "");
    await start();
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return showLogin();
    boot.className = "state error";
    boot.textContent = t().cannotStart(sentence(e));
  }
}

void main();
