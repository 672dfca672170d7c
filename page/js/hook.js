// @ts-check
/**
 * @module The Hook dialog (docs/hooks.md): whether a job has a hook (a secret URL, and with EMAIL_DOMAIN an address,
 * that runs it), Make or Replace (`POST …/jobs/:id/hook`) and Revoke (`DELETE …/jobs/:id/hook`). The URL and the
 * address are shown once: in this dialog's read-only fields (each with Copy) until it closes, when they are cleared.
 * Nothing keeps them: no variable, no storage, no address; the fields' autocomplete is off, so the browser does not
 * restore them either. A job made only for its hook opens here with the hook its create answered.
 */
import { api, chatPath } from "./api.js";
import { byId, sentence } from "./dom.js";
import { onLanguage, t } from "./texts.js";

/** @typedef {import("./state.js").Job} Job */
/** A hook's URL and address (null without EMAIL_DOMAIN), as the API answers them once. @typedef {{ url: string, email: string | null }} Addresses */

const dialog = /** @type {HTMLDialogElement} */ (byId("hook-dialog"));
const title = byId("hook-title");
const status = byId("hook-status");
const shown = byId("hook-shown");
const urlInput = /** @type {HTMLTextAreaElement} */ (byId("hook-url"));
const emailField = byId("hook-email-field");
const emailInput = /** @type {HTMLTextAreaElement} */ (byId("hook-email"));
const copied = byId("hook-copied");
const error = byId("hook-error");
const makeButton = /** @type {HTMLButtonElement} */ (byId("hook-make"));
const revokeButton = /** @type {HTMLButtonElement} */ (byId("hook-revoke"));

/**
 * The dialog's job (its chat, id and name), whether it has a hook now, and what runs after a change (the list is read
 * again, so that its row says so). `seq` counts the openings: an answer for an earlier one shows nothing.
 * @type {{ job: Job | null, has: boolean, changed: () => void }}
 */
let current = { job: null, has: false, changed: () => {} };
let seq = 0;

/** The dialog's words for the job as it is: its title, whether it has a hook, and the actions that fit. */
function writeState() {
  const words = t();
  title.textContent = words.hookTitle(current.job?.name ?? "");
  status.textContent = current.has ? words.hookYes : words.hookNo;
  makeButton.textContent = current.has ? words.replaceHook : words.makeHook;
  revokeButton.hidden = !current.has;
}

/** Shows a hook's URL and address, once, in the read-only fields. @param {Addresses} hook */
function show(hook) {
  urlInput.value = hook.url;
  emailInput.value = hook.email ?? "";
  emailField.hidden = hook.email === null;
  copied.textContent = "";
  shown.hidden = false;
}

/** Takes the URL and the address out of the page. */
function clear() {
  urlInput.value = "";
  emailInput.value = "";
  emailField.hidden = true;
  shown.hidden = true;
  copied.textContent = "";
}

/** Runs a request with the dialog's buttons disabled; its refusal is shown in the dialog. @param {() => Promise<void>} request */
async function busy(request) {
  error.textContent = "";
  makeButton.disabled = true;
  revokeButton.disabled = true;
  try {
    await request();
  } catch (e) {
    error.textContent = sentence(e);
  } finally {
    makeButton.disabled = false;
    revokeButton.disabled = false;
  }
}

makeButton.addEventListener("click", () => {
  const { job, changed } = current;
  if (!job) return;
  const mine = seq;
  void busy(async () => {
    /** @type {Addresses} */
    const hook = await api("POST", `${chatPath(job.chatId)}/jobs/${encodeURIComponent(job.id)}/hook`, {});
    changed();
    if (mine !== seq || !dialog.open) return;
    current.has = true;
    writeState();
    show(hook);
    urlInput.focus();
    urlInput.select();
  });
});

revokeButton.addEventListener("click", () => {
  const { job, changed } = current;
  if (!job) return;
  const mine = seq;
  void busy(async () => {
    await api("DELETE", `${chatPath(job.chatId)}/jobs/${encodeURIComponent(job.id)}/hook`);
    changed();
    if (mine !== seq || !dialog.open) return;
    current.has = false;
    // The address shown (if any) finds nothing now.
    clear();
    writeState();
    makeButton.focus();
  });
});

/**
 * Copies a field's text to the clipboard, saying so; where the clipboard is refused, the text is selected for the
 * person to copy. @param {HTMLTextAreaElement} input
 */
async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    copied.textContent = t().copied;
  } catch {
    input.focus();
    input.select();
    copied.textContent = t().copyFailed;
  }
}

byId("hook-url-copy").addEventListener("click", () => void copy(urlInput));
byId("hook-email-copy").addEventListener("click", () => void copy(emailInput));
byId("hook-close").addEventListener("click", () => dialog.close());
// Closed in any way (Close, Escape, another chat chosen): the URL leaves the page.
dialog.addEventListener("close", () => {
  // (Opened again before this event came: that opening shows what it shows.)
  if (dialog.open) return;
  seq++;
  clear();
  error.textContent = "";
  current = { job: null, has: false, changed: () => {} };
});

onLanguage(() => {
  if (dialog.open) writeState();
});

/**
 * Opens the dialog for `job`; `changed` runs after a hook is made or revoked. `made`: the hook a create just answered,
 * shown once here.
 * @param {Job} job @param {{ changed: () => void, made?: Addresses }} options
 */
export function openHook(job, { changed, made }) {
  seq++;
  current = { job, has: job.hook || made !== undefined, changed };
  clear();
  error.textContent = "";
  writeState();
  if (made) show(made);
  dialog.showModal();
  if (made) {
    urlInput.focus();
    urlInput.select();
  } else makeButton.focus();
}
