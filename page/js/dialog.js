// @ts-check
/**
 * @module The create/edit dialog (DESIGN §10): a native `<dialog>` (Escape closes it) with labelled fields, one
 * Schedule field that takes a cron expression, a date and time or a delay, and a live preview of the next runs
 * and their DST notes from `POST /admin/preview` as the user types. The API's sentence is shown beside the
 * field it names; nothing is created or changed until Save.
 */
import { api, ApiError, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { CHAT_ID, now, state } from "./state.js";
import { inZone, relative, scheduleOf, wallTime } from "./time.js";

/** @typedef {import("./state.js").Job} Job */
/** @typedef {{ name?: string, kind?: "prompt" | "watcher", text?: string, schedule?: string }} Prefill */

const dialog = /** @type {HTMLDialogElement} */ (byId("job-dialog"));
const form = /** @type {HTMLFormElement} */ (byId("job-form"));
const title = byId("job-dialog-title");
const where = byId("job-where");
const chatField = byId("job-chat-field");
const chatInput = /** @type {HTMLInputElement} */ (byId("job-chat"));
const nameInput = /** @type {HTMLInputElement} */ (byId("job-name"));
const kindSelect = /** @type {HTMLSelectElement} */ (byId("job-kind"));
const textLabel = byId("job-text-label");
const textInput = /** @type {HTMLTextAreaElement} */ (byId("job-text"));
const timeoutField = byId("job-timeout-field");
const timeoutInput = /** @type {HTMLInputElement} */ (byId("job-timeout"));
const scheduleInput = /** @type {HTMLInputElement} */ (byId("job-schedule"));
const formError = byId("job-form-error");
const saveButton = /** @type {HTMLButtonElement} */ (byId("job-save"));
const previewDescription = byId("preview-description");
const previewRuns = byId("preview-runs");
const previewNotes = byId("preview-notes");

/** The field each quoted name of an API sentence belongs to. */
const FIELDS = /** @type {const} */ ({
  name: "job-name",
  text: "job-text",
  command: "job-text",
  at: "job-schedule",
  cron: "job-schedule",
  delay: "job-schedule",
  timeoutSeconds: "job-timeout",
  kind: "job-kind",
});

/** @type {{ job: Job | null, original: string, zone: string, saved: (job: Job, chatId: string) => void }} */
let current = { job: null, original: "", zone: "UTC", saved: () => {} };
let previewSeq = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let previewTimer;

function clearErrors() {
  for (const el of form.querySelectorAll(".field-error")) el.textContent = "";
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  formError.textContent = "";
}

/** Shows `message` beside the field its first quoted name points at, else under the form. @param {string} message */
function showError(message) {
  const quoted = /^"(\w+)"/.exec(message)?.[1] ?? /"(at|cron|delay|name|text|command|timeoutSeconds)"/.exec(message)?.[1];
  const id = quoted && quoted in FIELDS ? FIELDS[/** @type {keyof typeof FIELDS} */ (quoted)] : null;
  const field = id ? document.getElementById(`${id}-error`) : null;
  if (id && field) {
    field.textContent = message;
    document.getElementById(id)?.setAttribute("aria-invalid", "true");
  } else formError.textContent = message;
}

function syncKind() {
  const watcher = kindSelect.value === "watcher";
  textLabel.textContent = watcher ? "Command" : "Prompt";
  timeoutField.hidden = !watcher;
}

/** The preview of what the schedule field says, from the API; a stale answer is dropped. */
async function preview() {
  const schedule = scheduleOf(scheduleInput.value);
  const seq = ++previewSeq;
  const error = byId("job-schedule-error");
  if (!schedule) {
    error.textContent = "";
    scheduleInput.removeAttribute("aria-invalid");
    previewDescription.textContent = "Type a schedule to see when it runs.";
    previewRuns.replaceChildren();
    previewNotes.replaceChildren();
    return;
  }
  try {
    const answer = await api("POST", "/admin/preview", { ...schedule, timeZone: current.zone });
    if (seq !== previewSeq) return;
    error.textContent = "";
    scheduleInput.removeAttribute("aria-invalid");
    previewDescription.textContent = answer.description;
    previewRuns.replaceChildren(
      ...answer.occurrences.map((/** @type {string} */ at) => h("li", {}, [`${inZone(Date.parse(at), current.zone, now())} (${relative(Date.parse(at), now())})`])),
    );
    previewNotes.replaceChildren(...answer.notes.map((/** @type {string} */ note) => h("li", {}, [note])));
  } catch (e) {
    if (seq !== previewSeq) return;
    previewRuns.replaceChildren();
    previewNotes.replaceChildren();
    previewDescription.textContent = "No preview until the schedule reads right.";
    if (e instanceof ApiError && e.status === 400) {
      error.textContent = e.message;
      scheduleInput.setAttribute("aria-invalid", "true");
    } else error.textContent = sentence(e);
  }
}

scheduleInput.addEventListener("input", () => {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 250);
});
kindSelect.addEventListener("change", syncKind);
byId("job-cancel").addEventListener("click", () => dialog.close("cancel"));
dialog.addEventListener("close", () => clearTimeout(previewTimer));

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const chatId = state.chatId ?? chatInput.value.trim();
  if (!CHAT_ID.test(chatId)) {
    byId("job-chat-error").textContent = "Give the chat's decimal Telegram id, such as 123456789.";
    chatInput.setAttribute("aria-invalid", "true");
    chatInput.focus();
    return;
  }
  const kind = /** @type {"prompt" | "watcher"} */ (kindSelect.value);
  /** @type {Record<string, unknown>} */
  const body = { name: nameInput.value.trim() };
  body[kind === "watcher" ? "command" : "text"] = textInput.value;
  if (kind === "watcher" && timeoutInput.value !== "") body.timeoutSeconds = Number(timeoutInput.value);
  const schedule = scheduleOf(scheduleInput.value);
  // An edit sends the schedule only when it changed: a one-off's time may have passed since it was set.
  if (!current.job || scheduleInput.value.trim() !== current.original.trim()) {
    if (!schedule) {
      byId("job-schedule-error").textContent =
        "A schedule is required: a cron expression such as 0 8 * * 1-5, a date and time such as 2026-12-01 09:00, or a delay such as PT20M.";
      scheduleInput.setAttribute("aria-invalid", "true");
      scheduleInput.focus();
      return;
    }
    Object.assign(body, schedule);
  }
  saveButton.disabled = true;
  try {
    const answer = current.job
      ? await api("PATCH", `${chatPath(chatId)}/jobs/${current.job.id}`, body)
      : await api("POST", `${chatPath(chatId)}/jobs`, { ...body, kind });
    dialog.close("saved");
    current.saved(answer.job, chatId);
  } catch (e) {
    showError(sentence(e));
  } finally {
    saveButton.disabled = false;
  }
});

/**
 * Opens the dialog: editing `job`, or creating (filled in from `prefill`, e.g. a suggestion's Use). `saved` is
 * called with the job the API answered.
 * @param {{ job?: Job, prefill?: Prefill, saved: (job: Job, chatId: string) => void }} options
 */
export function openJobDialog({ job, prefill, saved }) {
  clearErrors();
  previewSeq++;
  const zone = state.zone;
  const schedule = job ? ("cron" in job.schedule ? job.schedule.cron : wallTime(Date.parse(job.schedule.at), zone)) : (prefill?.schedule ?? "");
  current = { job: job ?? null, original: job ? schedule : "", zone, saved };
  title.textContent = job ? `Edit “${job.name}”` : "Create a job";
  where.textContent = state.chatId ? `In chat ${state.chatId}, times in ${zone}.` : `Times in ${zone}.`;
  chatField.hidden = state.chatId !== null;
  chatInput.value = "";
  nameInput.value = job?.name ?? prefill?.name ?? "";
  kindSelect.value = job?.kind ?? prefill?.kind ?? "prompt";
  kindSelect.disabled = Boolean(job);
  textInput.value = job ? (job.kind === "watcher" ? (job.command ?? "") : (job.text ?? "")) : (prefill?.text ?? "");
  timeoutInput.value = job?.timeoutSeconds !== undefined ? String(job.timeoutSeconds) : "";
  scheduleInput.value = schedule;
  syncKind();
  dialog.showModal();
  (state.chatId === null ? chatInput : nameInput).focus();
  void preview();
}
