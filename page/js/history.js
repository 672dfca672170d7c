// @ts-check
/** @module The History dialog: a job's runs (`GET …/jobs/:id/runs`), newest first, in the chat's zone. */
import { api, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { now, state } from "./state.js";
import { statusWord, t } from "./texts.js";
import { inZone, relative } from "./time.js";

const dialog = /** @type {HTMLDialogElement} */ (byId("history-dialog"));
const body = byId("history-body");
byId("history-close").addEventListener("click", () => dialog.close());

/**
 * @typedef {{ runId: string, manual: boolean, dueAt: string, finishedAt: string | null, state: string, status: string | null,
 *   exitCode: number | null, timedOut: boolean, late: boolean, detail: string | null }} Run
 */

/** @param {Run} run */
function line(run) {
  const words = t();
  const due = Date.parse(run.dueAt);
  const what = run.status !== null ? statusWord(run.status) : run.state === "settled" ? words.settled : words.inFlight;
  const facts = [
    run.manual ? words.runByHand : null,
    run.late ? words.late : null,
    run.timedOut ? words.timedOut : null,
    run.exitCode !== null ? words.exit(run.exitCode) : null,
  ].filter(Boolean);
  return h("li", {}, [
    h("strong", {}, [what]),
    ` · ${inZone(due, state.zone, now())} (${relative(due, now())})`,
    facts.length ? ` · ${facts.join(", ")}` : "",
    run.detail ? h("div", { class: "muted" }, [run.detail]) : null,
  ]);
}

/** Opens the dialog for `job` and loads its runs. @param {import("./state.js").Job} job */
export async function openHistory(job) {
  byId("history-title").textContent = t().historyOf(job.name);
  body.replaceChildren(h("p", { class: "state", role: "status" }, [t().loadingRuns]));
  dialog.showModal();
  try {
    const { runs } = await api("GET", `${chatPath(job.chatId)}/jobs/${job.id}/runs`);
    body.replaceChildren(runs.length ? h("ol", { class: "runs", "aria-label": t().runs }, runs.map(line)) : h("p", { class: "muted" }, [t().noRuns]));
  } catch (e) {
    body.replaceChildren(h("p", { class: "state error", role: "alert" }, [sentence(e)]));
  }
}
