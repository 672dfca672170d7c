// @ts-check
/**
 * @module The create/edit dialog (docs/page.md): a native `<dialog>` (Escape closes it) with labelled fields and
 * one Schedule field that reads what the bot reads: a phrase (`every other tuesday at 10`, `jeden Tag um 8`), a
 * cron expression, a date and time, a duration or a rule, through `POST /admin/preview { when }` as the user
 * types (debounced), which shows what it understood (`every 2 weeks on Tuesday at 10:00 · next: Tue 8 Dec
 * 10:00, Tue 22 Dec 10:00…`), the next runs and their DST notes. Save sends the schedule the words resolved to
 * (with its end). Editing shows the job's schedule in the words the API describes it with, which read back as the
 * same schedule. The words are read and described in the chat's language (`language` of the preview), any of the
 * others read too. "Run only when its hook is called" puts `"trigger": "hook"` in place of a schedule (docs/hooks.md):
 * the Schedule field and the preview give way, and a job so created comes back with its hook, which the caller shows
 * once. The Model, "If a run is missed" and Grace fields (docs/agent.md#models, docs/time.md#missed-runs) show the job's
 * own; the models are the chat's choices (`GET …/model`), the field shown only when there is a choice to make, and
 * "Run each" is offered to repeating jobs only; neither missed runs nor grace apply to a job only its hook runs. A
 * create sends them only when they are not the defaults, an edit only when they changed. So do **Notices ahead**
 * (docs/telegram.md#notices-ahead: up to three of 10 min, 1 h, 1 day, 1 week, and a job's own others; not for a job
 * only its hook runs) and **Nag until done** (docs/telegram.md#nag-until-done: every 5, 10 or 30 min or 1 h, and a job's
 * own, 1 to 20 more times; prompt jobs only). The API's sentence is shown beside the field it names; nothing is
 * created or changed until Save.
 */
import { ApiError, api, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { CHAT_ID, now, state } from "./state.js";
import { language, onLanguage, t } from "./texts.js";
import { durationSeconds, inZone, relative, scheduleField, spanText } from "./time.js";

/** @typedef {import("./state.js").Job} Job */
/** @typedef {{ name?: string, kind?: "prompt" | "watcher", text?: string, schedule?: string }} Prefill */
/** @typedef {import("./hook.js").Addresses} Addresses */

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
const scheduleBox = byId("job-schedule-field");
const hookOnly = /** @type {HTMLInputElement} */ (byId("job-hook-only"));
const previewSection = byId("preview");
const formError = byId("job-form-error");
const saveButton = /** @type {HTMLButtonElement} */ (byId("job-save"));
const previewDescription = byId("preview-description");
const understood = byId("job-schedule-understood");
const previewRuns = byId("preview-runs");
const previewNotes = byId("preview-notes");
const modelField = byId("job-model-field");
const modelSelect = /** @type {HTMLSelectElement} */ (byId("job-model"));
const missedField = byId("job-missed-field");
const missedSelect = /** @type {HTMLSelectElement} */ (byId("job-missed"));
const graceField = byId("job-grace-field");
const graceSelect = /** @type {HTMLSelectElement} */ (byId("job-grace"));
const beforeField = byId("job-before");
const beforeChoices = byId("job-before-choices");
const repeatField = byId("job-repeat-field");
const repeatSelect = /** @type {HTMLSelectElement} */ (byId("job-repeat"));
const repeatCount = byId("job-repeat-count");
const repeatTimes = /** @type {HTMLInputElement} */ (byId("job-repeat-times"));

/** The Grace field's choices, ISO 8601 durations as the API writes them; the API's default is a minute. */
const GRACES = /** @type {const} */ (["PT0S", "PT1M", "PT5M", "PT15M", "PT1H", "PT6H", "P1D"]);
const DEFAULT_GRACE = "PT1M";
/** What a missed run does unless a job says otherwise. */
const DEFAULT_MISSED = "once";
/** The Notices ahead field's choices, shortest first, of which a job takes at most three. */
const NOTICES = /** @type {const} */ (["PT10M", "PT1H", "P1D", "P7D"]);
const MAX_NOTICES = 3;
/** The Nag until done field's intervals, and how many more copies it offers when first turned on (the bot's `until done`). */
const NAG_EVERY = /** @type {const} */ (["PT5M", "PT10M", "PT30M", "PT1H"]);
const DEFAULT_TIMES = 6;
/** The bot's models a job may choose (`choices` of `GET …/model`, the same for every chat): the last read. @type {string[]} */
let modelChoices = [];

/** The field each quoted name of an API sentence belongs to. */
const FIELDS = /** @type {const} */ ({
  name: "job-name",
  text: "job-text",
  command: "job-text",
  at: "job-schedule",
  cron: "job-schedule",
  delay: "job-schedule",
  rrule: "job-schedule",
  start: "job-schedule",
  until: "job-schedule",
  runsLeft: "job-schedule",
  timeoutSeconds: "job-timeout",
  kind: "job-kind",
  trigger: "job-hook-only",
  model: "job-model",
  missed: "job-missed",
  grace: "job-grace",
  before: "job-before",
  repeat: "job-repeat",
});

/**
 * The dialog's job, its schedule as first shown, the zone, what runs once saved, and the chat it was opened for (null:
 * none was shown, the chat field says which): a save goes to that chat, whatever the page shows by then. `saved` gets
 * the hook a create answered (a job only its hook runs), to show once. `effective`: the model the chat's turns run
 * on, which the Model field's "Chat's model" names.
 * @type {{ job: Job | null, original: string, zone: string, saved: Saved, chatId: string | null, effective: string | null }}
 */
let current = { job: null, original: "", zone: "UTC", saved: () => {}, chatId: null, effective: null };
/** How many of the next runs the "understood" line names before its "…". */
const UNDERSTOOD_RUNS = 2;
let previewSeq = 0;
/** Counts the dialog's openings: what an earlier one read comes too late for a later one. */
let openSeq = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let previewTimer;

function clearErrors() {
  for (const el of form.querySelectorAll(".field-error")) el.textContent = "";
  for (const el of form.querySelectorAll("[aria-invalid]")) el.removeAttribute("aria-invalid");
  formError.textContent = "";
}

/**
 * Shows `message` beside the field its first quoted name points at, else under the form (also when that field is
 * hidden: notices for a job only its hook runs). @param {string} message
 */
function showError(message) {
  const quoted =
    /^"(\w+)"/.exec(message)?.[1] ??
    /"(at|cron|delay|rrule|start|until|runsLeft|name|text|command|timeoutSeconds|trigger|missed|grace|before|repeat)"/.exec(message)?.[1];
  const id = quoted && quoted in FIELDS ? FIELDS[/** @type {keyof typeof FIELDS} */ (quoted)] : null;
  const field = id ? document.getElementById(`${id}-error`) : null;
  if (id && field && field.closest("[hidden]") === null) {
    field.textContent = message;
    document.getElementById(id)?.setAttribute("aria-invalid", "true");
  } else formError.textContent = message;
}

function syncKind() {
  const watcher = kindSelect.value === "watcher";
  textLabel.textContent = watcher ? t().command : t().prompt;
  timeoutField.hidden = !watcher;
  // A watcher's message is sent once.
  repeatField.hidden = watcher;
}

/** Whether the job is one only its hook runs: no schedule field, no preview, nothing to miss. */
function syncHookOnly() {
  scheduleBox.hidden = hookOnly.checked;
  previewSection.hidden = hookOnly.checked;
  missedField.hidden = hookOnly.checked;
  graceField.hidden = hookOnly.checked;
  beforeField.hidden = hookOnly.checked;
}

/** "Run each" is for repeating jobs: a one-off runs once (the API refuses it). @param {boolean} oneOff */
function syncOneOff(oneOff) {
  const all = /** @type {HTMLOptionElement} */ (missedSelect.querySelector('option[value="all"]'));
  all.disabled = oneOff;
}

/**
 * The Model field's choices: the chat's model (its value "", sent as null), then each of the bot's, and `selected`
 * too when the bot no longer lists it. Shown when there is a choice to make, or a model to unpin.
 * @param {string | null} selected
 */
function fillModels(selected) {
  const names = selected !== null && !modelChoices.includes(selected) ? [...modelChoices, selected] : modelChoices;
  modelSelect.replaceChildren(h("option", { value: "" }, [t().chatModel(current.effective)]), ...names.map((name) => h("option", { value: name }, [name])));
  modelSelect.value = selected ?? "";
  modelField.hidden = modelChoices.length < 2 && selected === null;
}

/** A duration's seconds (`PT1H30M` → 5400), for its place among the choices; Infinity when it does not read. @param {string} iso */
const graceSeconds = (iso) => durationSeconds(iso) ?? Number.POSITIVE_INFINITY;

/** `values` with each of `own` not among them, in its place by length. @param {readonly string[]} values @param {readonly string[]} own */
function withOwn(values, own) {
  const all = [...values];
  for (const v of own) {
    if (all.some((x) => graceSeconds(x) === graceSeconds(v))) continue;
    const after = all.findIndex((x) => graceSeconds(x) > graceSeconds(v));
    all.splice(after === -1 ? all.length : after, 0, v);
  }
  return all;
}

/** The Grace field's choices, with `selected` among them in its place when it is none of them. @param {string} selected */
function fillGrace(selected) {
  const values = /** @type {string[]} */ ([...GRACES]);
  if (!values.includes(selected)) {
    const after = values.findIndex((v) => graceSeconds(v) > graceSeconds(selected));
    values.splice(after === -1 ? values.length : after, 0, selected);
  }
  const labels = /** @type {Record<string, string>} */ (t().graceChoices);
  graceSelect.replaceChildren(...values.map((v) => h("option", { value: v }, [Object.hasOwn(labels, v) ? (labels[v] ?? v) : v])));
  graceSelect.value = selected;
}

/**
 * The Notices ahead field: a checkbox for each choice and each of `selected` not among them, `selected` checked (by
 * length: the API writes `PT60M` as `PT1H`). @param {readonly string[]} selected
 */
function fillBefore(selected) {
  const chosen = new Set(selected.map(graceSeconds));
  beforeChoices.replaceChildren(
    ...withOwn(NOTICES, selected).map((v) => {
      const box = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", value: v }));
      box.checked = chosen.has(graceSeconds(v));
      return h("label", { class: "check" }, [box, " ", h("span", {}, [spanText(v)])]);
    }),
  );
  syncBefore();
}

/** The checked notices, longest first, as the API lists them. */
const chosenBefore = () =>
  Array.from(beforeChoices.querySelectorAll("input:checked"), (box) => /** @type {HTMLInputElement} */ (box).value).sort(
    (a, b) => graceSeconds(b) - graceSeconds(a),
  );

/** At most three notices: once three are checked, the others cannot be. */
function syncBefore() {
  const full = chosenBefore().length >= MAX_NOTICES;
  for (const box of beforeChoices.querySelectorAll("input")) {
    const input = /** @type {HTMLInputElement} */ (box);
    input.disabled = full && !input.checked;
  }
}

/** Whether two lists of durations say the same notices. @param {readonly string[]} a @param {readonly string[]} b */
const sameNotices = (a, b) => a.length === b.length && a.map(graceSeconds).sort().join() === b.map(graceSeconds).sort().join();

/**
 * The Nag until done field: off, or every so often (the choices, and `every` in its place when it is none of them),
 * with how many more times. @param {string} every "" for off @param {string} times
 */
function fillRepeat(every, times) {
  const words = t();
  repeatSelect.replaceChildren(
    h("option", { value: "" }, [words.repeatOff]),
    ...withOwn(NAG_EVERY, every === "" ? [] : [every]).map((v) => h("option", { value: v }, [words.repeatEvery(spanText(v))])),
  );
  repeatSelect.value = every;
  repeatTimes.value = times;
  syncRepeat();
}

/** The count goes with an interval: hidden while the field is off, and the bot's 6 when it is first turned on. */
function syncRepeat() {
  repeatCount.hidden = repeatSelect.value === "";
  if (!repeatCount.hidden && repeatTimes.value === "") repeatTimes.value = String(DEFAULT_TIMES);
}

/** What the Nag until done field says: null for off; a count that does not read is sent as it is, for the API to refuse. */
function chosenRepeat() {
  if (repeatSelect.value === "") return null;
  return { every: repeatSelect.value, times: repeatTimes.value.trim() === "" ? Number.NaN : Number(repeatTimes.value) };
}

/**
 * Whether the field says the job's repetition. @param {{ every: string, times: number } | null} a
 * @param {{ every: string, times: number } | null} b
 */
const sameRepeat = (a, b) => (a === null || b === null ? a === b : graceSeconds(a.every) === graceSeconds(b.every) && a.times === b.times);

/**
 * The chat's model and the bot's choices (`GET …/model`); what was last read when it cannot be asked (the choices are
 * the bot's, the same for every chat). @param {string | null} chatId
 */
async function readModels(chatId) {
  if (chatId === null) return { effective: null };
  try {
    const answer = await api("GET", `${chatPath(chatId)}/model`);
    modelChoices = Array.isArray(answer.choices) ? answer.choices.map(String) : [];
    return { effective: typeof answer.effective === "string" ? answer.effective : null };
  } catch {
    return { effective: null };
  }
}

/** Whether the edited job is one only its hook runs. */
const wasHookOnly = () => current.job !== null && "trigger" in current.job.schedule;

/** Whether the Schedule field still holds the edited job's own schedule (then its end goes with the preview). */
const unchanged = () => current.job !== null && !wasHookOnly() && scheduleInput.value.trim() === current.original.trim();

/**
 * What the API makes of the Schedule field's words: `POST /admin/preview { when }` in the chat's zone and language
 * (read in it first, described in it); for an edit whose schedule is unchanged, with the job's own end, so the
 * runs stop where it ends.
 * @param {string} text
 */
function readSchedule(text) {
  const job = current.job;
  const ends = job && unchanged() ? { until: job.until ?? null, runsLeft: job.runsLeft ? job.runsLeft : null } : {};
  return api("POST", "/admin/preview", { when: text, timeZone: current.zone, language: language(), ...ends });
}

/** The preview of what the schedule field says, from the API; a stale answer is dropped. */
async function preview() {
  const text = scheduleInput.value.trim();
  const seq = ++previewSeq;
  const error = byId("job-schedule-error");
  if (text === "") {
    error.textContent = "";
    scheduleInput.removeAttribute("aria-invalid");
    understood.textContent = "";
    previewDescription.textContent = t().typeSchedule;
    previewRuns.replaceChildren();
    previewNotes.replaceChildren();
    return;
  }
  try {
    const answer = await readSchedule(text);
    if (seq !== previewSeq) return;
    syncOneOff(Boolean(answer.schedule && "at" in answer.schedule));
    error.textContent = "";
    scheduleInput.removeAttribute("aria-invalid");
    const runs = /** @type {number[]} */ (answer.occurrences.map((/** @type {string} */ at) => Date.parse(at)));
    // What was understood, in one line beside the field: the description without its zone, and the next runs.
    const said = String(answer.description).replace(/ \([^()]+\)$/, "");
    const next = runs
      .slice(0, UNDERSTOOD_RUNS)
      .map((at) => inZone(at, current.zone, now()))
      .join(", ");
    understood.textContent = t().understood(said, next, runs.length > UNDERSTOOD_RUNS);
    previewDescription.textContent = answer.description;
    previewRuns.replaceChildren(...runs.map((at) => h("li", {}, [`${inZone(at, current.zone, now())} (${relative(at, now())})`])));
    previewNotes.replaceChildren(...answer.notes.map((/** @type {string} */ note) => h("li", {}, [note])));
  } catch (e) {
    if (seq !== previewSeq) return;
    understood.textContent = "";
    previewRuns.replaceChildren();
    previewNotes.replaceChildren();
    previewDescription.textContent = t().noPreview;
    if (e instanceof ApiError && e.status === 400) {
      error.textContent = e.message;
      scheduleInput.setAttribute("aria-invalid", "true");
    } else error.textContent = sentence(e);
  }
}

scheduleInput.addEventListener("input", () => {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 300);
});
kindSelect.addEventListener("change", syncKind);
hookOnly.addEventListener("change", syncHookOnly);
beforeChoices.addEventListener("change", syncBefore);
repeatSelect.addEventListener("change", syncRepeat);
byId("job-cancel").addEventListener("click", () => dialog.close("cancel"));
dialog.addEventListener("close", () => clearTimeout(previewTimer));

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const chatId = current.chatId ?? chatInput.value.trim();
  if (!CHAT_ID.test(chatId)) {
    byId("job-chat-error").textContent = t().giveChatId;
    chatInput.setAttribute("aria-invalid", "true");
    chatInput.focus();
    return;
  }
  const kind = /** @type {"prompt" | "watcher"} */ (kindSelect.value);
  /** @type {Record<string, unknown>} */
  const body = { name: nameInput.value.trim() };
  body[kind === "watcher" ? "command" : "text"] = textInput.value;
  if (kind === "watcher" && timeoutInput.value !== "") body.timeoutSeconds = Number(timeoutInput.value);
  // The model, and what a missed run does: an edit sends what changed, a create what is not the default. Neither
  // missed runs nor grace apply to a job only its hook runs.
  const model = modelSelect.value === "" ? null : modelSelect.value;
  const timed = !hookOnly.checked;
  const was = current.job ?? { model: null, missed: DEFAULT_MISSED, grace: DEFAULT_GRACE, before: [], repeat: null };
  if (model !== was.model) body.model = model;
  if (timed && missedSelect.value !== was.missed) body.missed = missedSelect.value;
  if (timed && graceSelect.value !== was.grace) body.grace = graceSelect.value;
  // Notices ahead (none for a job only its hook runs) and nagging (prompts only), the same way.
  const before = chosenBefore();
  if (timed && !sameNotices(before, was.before)) body.before = before;
  const repeat = chosenRepeat();
  if (kind === "prompt" && !sameRepeat(repeat, was.repeat)) body.repeat = repeat;
  const text = scheduleInput.value.trim();
  // A job only its hook runs: "trigger" in place of a schedule (an edit of one that is already so sends neither).
  if (hookOnly.checked && !wasHookOnly()) body.trigger = "hook";
  // An edit sends the schedule only when it changed: a one-off's time may have passed since it was set.
  const changed = !hookOnly.checked && !unchanged();
  if (changed && text === "") {
    byId("job-schedule-error").textContent = t().scheduleRequired;
    scheduleInput.setAttribute("aria-invalid", "true");
    scheduleInput.focus();
    return;
  }
  saveButton.disabled = true;
  if (changed) {
    // The words as the API reads them now (a preview may still be on its way): the schedule and its end. What the
    // field does not say is not kept: no end said, none sent. A sentence about them goes beside the field.
    try {
      /** @type {Record<string, unknown>} */
      const schedule = (await readSchedule(text)).schedule;
      Object.assign(body, schedule, "at" in schedule ? {} : { until: schedule.until ?? null, runsLeft: schedule.runsLeft ?? null });
    } catch (e) {
      byId("job-schedule-error").textContent = sentence(e);
      scheduleInput.setAttribute("aria-invalid", "true");
      saveButton.disabled = false;
      return;
    }
  }
  try {
    const answer = current.job
      ? await api("PATCH", `${chatPath(chatId)}/jobs/${current.job.id}`, body)
      : await api("POST", `${chatPath(chatId)}/jobs`, { ...body, kind });
    dialog.close("saved");
    current.saved(answer.job, chatId, answer.hook);
  } catch (e) {
    showError(sentence(e));
  } finally {
    saveButton.disabled = false;
  }
});

/**
 * The zone of `chatId`, read with its jobs: a dialog opened for that chat while it was still being read (a chat just
 * chosen) showed the zone of the chat before; it takes this one and previews again, dropping what it showed.
 * @param {string} chatId @param {string} zone
 */
export function zoneKnown(chatId, zone) {
  if (!dialog.open || current.chatId !== chatId || current.zone === zone) return;
  current.zone = zone;
  where.textContent = t().inChat(chatId, zone);
  void preview();
}

/** The dialog's own words: its title, where it acts and the text field's label. */
function writeHeading() {
  title.textContent = current.job ? t().editTitle(current.job.name) : t().createTitle;
  where.textContent = current.chatId ? t().inChat(current.chatId, current.zone) : t().timesIn(current.zone);
  syncKind();
}

// The chat's language, known with its jobs (a dialog opened while they were still read): its words, and the
// preview read and described in it.
onLanguage(() => {
  if (!dialog.open) return;
  writeHeading();
  fillModels(modelSelect.value === "" ? null : modelSelect.value);
  fillGrace(graceSelect.value);
  fillBefore(chosenBefore());
  fillRepeat(repeatSelect.value, repeatTimes.value);
  void preview();
});

/**
 * A job's schedule as the Schedule field shows it for editing: a one-off's wall time, a repetition in the words the
 * API describes it with (docs/time.md#descriptions: they read back as the same schedule), without the zone the
 * dialog names; as written (`scheduleField`) when the API cannot be asked.
 * @param {Job} job @param {string} zone
 */
async function scheduleWords(job, zone) {
  if ("at" in job.schedule || "trigger" in job.schedule) return scheduleField(job.schedule, zone);
  try {
    const answer = await api("POST", "/admin/preview", { ...job.schedule, timeZone: zone, count: 1, language: language() });
    return String(answer.description).replace(` (${zone})`, "");
  } catch {
    return scheduleField(job.schedule, zone);
  }
}

/** @typedef {(job: Job, chatId: string, hook?: Addresses) => void} Saved */

/**
 * Opens the dialog: editing `job`, or creating (filled in from `prefill`, e.g. a suggestion's Use). `saved` is
 * called with the job the API answered, and the hook a job created only for its hook was made with.
 * @param {{ job?: Job, prefill?: Prefill, saved: Saved }} options
 */
export async function openJobDialog({ job, prefill, saved }) {
  clearErrors();
  previewSeq++;
  const zone = state.zone;
  const chatId = job?.chatId ?? state.chatId;
  // An edit waits for its schedule's words, and the models with them; a create opens at once, with the models last
  // read, and takes the chat's when they come.
  const models = readModels(chatId);
  const [schedule, known] = job ? await Promise.all([scheduleWords(job, zone), models]) : [prefill?.schedule ?? "", null];
  const opened = ++openSeq;
  current = { job: job ?? null, original: job ? schedule : "", zone, saved, chatId, effective: known?.effective ?? null };
  chatField.hidden = chatId !== null;
  chatInput.value = "";
  nameInput.value = job?.name ?? prefill?.name ?? "";
  kindSelect.value = job?.kind ?? prefill?.kind ?? "prompt";
  kindSelect.disabled = Boolean(job);
  textInput.value = job ? (job.kind === "watcher" ? (job.command ?? "") : (job.text ?? "")) : (prefill?.text ?? "");
  timeoutInput.value = job?.timeoutSeconds !== undefined ? String(job.timeoutSeconds) : "";
  scheduleInput.value = schedule;
  hookOnly.checked = job !== undefined && "trigger" in job.schedule;
  syncHookOnly();
  fillModels(job?.model ?? null);
  missedSelect.value = job?.missed ?? DEFAULT_MISSED;
  fillGrace(job?.grace ?? DEFAULT_GRACE);
  fillBefore(job?.before ?? []);
  fillRepeat(job?.repeat?.every ?? "", job?.repeat ? String(job.repeat.times) : "");
  syncOneOff(job !== undefined && "at" in job.schedule);
  writeHeading();
  dialog.showModal();
  (chatId === null ? chatInput : nameInput).focus();
  void preview();
  if (known === null)
    void models.then(({ effective }) => {
      if (opened !== openSeq || !dialog.open) return;
      current.effective = effective;
      fillModels(modelSelect.value === "" ? null : modelSelect.value);
    });
}
