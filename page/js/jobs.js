// @ts-check
/**
 * @module The job rows (docs/page.md): numbered in visible order, each with its name and kind, the
 * schedule described (a cron's or a rule's words come from `POST /admin/preview`, cached) with what is left of a
 * job that ends, the next run in the chat's zone and relative to now (a job only its hook runs has none: its
 * schedule says so), whether it has a hook, its status, its own model and what a missed run does when it is not the
 * default (docs/agent.md#models, docs/time.md#missed-runs), its notices ahead and how its message nags when it has
 * them (docs/telegram.md#notices-ahead, docs/telegram.md#nag-until-done), the forum topic it posts in, and the actions as buttons
 * whose accessible names name the job (History alone when the session may only read: a group's member who is not
 * its admin).
 */
import { api } from "./api.js";
import { h } from "./dom.js";
import { now, state } from "./state.js";
import { language, statusWord, t } from "./texts.js";
import { inZone, leftOf, relative, spanText } from "./time.js";

/** @typedef {import("./state.js").Job} Job */
/**
 * @typedef {{ run(job: Job): void, toggle(job: Job): void, edit(job: Job): void, hook(job: Job): void, remove(job: Job): void,
 *   history(job: Job): void }} Actions
 */

/** @type {Map<string, Promise<string>>} */
const descriptions = new Map();

/**
 * The API's words for a cron expression or a rule in a zone, in the page's language (one preview per schedule,
 * zone and language).
 * @param {{ cron: string } | { rrule: string, start: string }} schedule @param {string} zone
 */
function describe(schedule, zone) {
  const lang = language();
  const key = `${lang}|${zone}|${JSON.stringify(schedule)}`;
  let d = descriptions.get(key);
  if (!d) {
    d = api("POST", "/admin/preview", { ...schedule, timeZone: zone, count: 1, language: lang }).then(
      (r) => String(r.description),
      () => ("cron" in schedule ? t().cron(schedule.cron) : t().rule(schedule.rrule)),
    );
    descriptions.set(key, d);
  }
  return d;
}

/** @param {Job} job */
async function scheduleText(job, /** @type {string} */ zone) {
  // No time of its own: only its hook runs it (docs/hooks.md).
  if ("trigger" in job.schedule) return t().whenHookCalled;
  // One time as its wall time, as the bot says it: words that read back (docs/time.md#descriptions).
  if ("at" in job.schedule) return `${inZone(Date.parse(job.schedule.at), zone, now())} (${zone})`;
  const words = await describe(job.schedule, zone);
  const left = leftOf(job, zone, now());
  return left ? `${words} · ${left}` : words;
}

/** @param {Job} job */
function statusLine(job) {
  const words = t();
  const parts = [];
  if (job.running) parts.push(h("span", { class: "badge running" }, [words.running]));
  if (!job.enabled) parts.push(h("span", { class: "badge paused" }, [words.paused]));
  if (job.lastResult) {
    const status = job.lastResult.status;
    // Exit 75 ("try next time") and the day's wake-up budget are not failures: said in words, not in red.
    const style = status === "failed" ? "result-failed" : status === "transient" || status === "over_budget" ? "muted" : "result-ok";
    const said = status === "transient" ? words.lastSkipped : status === "over_budget" ? words.lastHeld : statusWord(status);
    parts.push(h("span", { class: style }, [words.lastRun(said, relative(Date.parse(job.lastResult.at), now()))]));
  } else if (!job.running) parts.push(h("span", { class: "muted" }, [words.notRunYet]));
  const line = h("p", { class: "job-status" }, []);
  for (const [i, p] of parts.entries()) line.append(...(i ? [" ", p] : [p]));
  return line;
}

/** @param {Job} job */
function nextLine(job) {
  // A job only its hook runs has no next run; without a hook nothing runs it, which the row says.
  if ("trigger" in job.schedule) return job.hook ? null : h("p", { class: "job-next muted" }, [t().noHookToRun]);
  if (job.nextRunAt === null) return h("p", { class: "job-next muted" }, [job.enabled ? t().noNextRun : t().noneWhilePaused]);
  const at = Date.parse(job.nextRunAt);
  return h("p", { class: "job-next" }, [t().nextRun(inZone(at, state.zone, now()), relative(at, now()))]);
}

/**
 * The job's own model, what a missed run does, its notices ahead and its nagging, each when not the default (`model
 * gpt-4o · if missed: skip · notices: 1 day, 1 h · nags every 10 min ×6`). @param {Job} job
 */
function optionsLine(job) {
  const words = t();
  const parts = [];
  if (job.model) parts.push(words.pinnedModel(job.model));
  if (job.missed && job.missed !== "once") parts.push(words.ifMissed(words.missedShort[job.missed] ?? job.missed));
  if (job.before?.length) parts.push(words.notices(job.before.map(spanText).join(", ")));
  if (job.repeat) parts.push(words.nags(spanText(job.repeat.every), job.repeat.times));
  return parts.length > 0 ? h("p", { class: "job-options muted" }, [parts.join(" · ")]) : null;
}

/**
 * Renders `jobs` into `list`, numbered from 1.
 * @param {HTMLElement} list @param {Job[]} jobs @param {Actions} actions
 */
export function renderJobs(list, jobs, actions) {
  const words = t();
  list.replaceChildren(
    ...jobs.map((job, i) => {
      const schedule = h("p", { class: "job-schedule" }, ["…"]);
      scheduleText(job, state.zone).then((text) => (schedule.textContent = text));
      // Each action's button says its verb; its accessible name adds the job's.
      const button = (/** @type {string} */ verb, /** @type {() => void} */ act, cls = "") => {
        const b = h("button", { type: "button", "aria-label": words.named(verb, job.name), class: cls || undefined }, [verb]);
        b.addEventListener("click", act);
        return b;
      };
      return h("li", { class: "job", "data-job-id": job.id }, [
        h("span", { class: "job-num", "aria-hidden": "true" }, [`${i + 1}.`]),
        h("div", { class: "job-main" }, [
          h("div", { class: "job-title" }, [
            h("h3", {}, [job.name]),
            h("span", { class: "job-kind" }, [job.kind === "prompt" ? words.prompt : words.watcher]),
            // A secret URL runs it (docs/hooks.md): said in words to those who do not see the badge's link sign.
            job.hook ? h("span", { class: "badge hook", role: "img", "aria-label": words.hasHook }, [`🔗 ${words.hook}`]) : null,
          ]),
          schedule,
          nextLine(job),
          statusLine(job),
          optionsLine(job),
          ...(job.threadId !== undefined ? [h("p", { class: "job-topic muted" }, [words.postsInTopic(job.threadId)])] : []),
        ]),
        h(
          "div",
          { class: "job-actions" },
          state.readOnly
            ? [button(words.history, () => actions.history(job))]
            : [
                button(words.runNow, () => actions.run(job)),
                job.enabled ? button(words.pause, () => actions.toggle(job)) : button(words.resume, () => actions.toggle(job)),
                button(words.edit, () => actions.edit(job)),
                button(words.hook, () => actions.hook(job)),
                button(words.history, () => actions.history(job)),
                button(words.delete, () => actions.remove(job), "danger"),
              ],
        ),
      ]);
    }),
  );
}
