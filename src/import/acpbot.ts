/**
 * @module acpbot's schedules (docs/imports.md#acpbot), read tolerantly: the `.acpbot/schedules/<id>.json` files,
 * each `{ id, prompt, script?, scriptContent?, once | cron, nextRunAt, enabled, timezone }`, all for one chat.
 * `enabled: false` meant cancelled, or a `once` that already fired: a disabled one-off is left out, a disabled
 * cron job is imported paused. acpbot ran every cron in UTC whatever `timezone` said: the cron is imported as
 * written, and a sentence says so when the chat's zone is not UTC. A script becomes a watcher only when its
 * content came with it (`scriptContent`); its prompt then names the watcher.
 */

import type { ImportEntry } from "../schemas/import";
import { LIMITS } from "../schemas/jobs";
import { add, emptyPlan, type ImportPlan, idOf, nameFrom, objectOf, quoted, textOf } from "./plan";

/** Reads acpbot's schedule files for `chatId`. */
export function readAcpbot(data: unknown, chatId: string): ImportPlan {
  const plan = emptyPlan("acpbot");
  if (!Array.isArray(data)) {
    plan.problems.push(`"data" must be an array of acpbot's schedule files (.acpbot/schedules/<id>.json); nothing was imported.`);
    return plan;
  }
  const readOne = (raw: unknown, i: number) => {
    const file = objectOf(raw);
    const id = idOf(file?.id);
    const label = id !== null ? `acpbot schedule ${quoted(id)}` : `acpbot schedule #${i + 1}`;
    const problem = (why: string) => void plan.problems.push(`${label} ${why}.`);
    if (!file) return problem("is not a JSON object; it was left out");
    if (id === null) return problem(`has no "id"; it was left out`);
    const prompt = textOf(file.prompt);
    if (prompt === null) return problem(`has no "prompt"; it was left out`);
    const cron = textOf(file.cron);
    // `once` is the instant to fire at; an acpbot that wrote `once: true` kept the instant in `nextRunAt`.
    const once = textOf(file.once) ?? (file.once === true ? textOf(file.nextRunAt) : null);
    if ((once === null) === (cron === null)) return problem(`needs exactly one of "once" (an instant) and "cron"; it was left out`);
    const enabled = file.enabled !== false;
    if (once !== null && !enabled) return problem("is a one-off that already fired or was cancelled (enabled: false); it was left out");
    const script = textOf(file.script);
    const content = typeof file.scriptContent === "string" && file.scriptContent.trim() !== "" ? file.scriptContent : null;
    if (script !== null && content === null) {
      return problem(
        `runs the script ${quoted(script)}, whose content did not come with it ("scriptContent"); it was left out. Add the content and import again`,
      );
    }
    const name = textOf(file.name) ?? nameFrom(prompt, LIMITS.name);
    const job: ImportEntry["job"] = content !== null ? { name, kind: "watcher", command: content } : { name, kind: "prompt", text: prompt };
    if (content !== null && textOf(file.name) === null && name !== prompt.trim()) {
      problem(`became a watcher running its script; its prompt is kept only as the job's name, ${quoted(name)}`);
    }
    add(plan, chatId, {
      sourceId: `acpbot:${id}`,
      label,
      job,
      when: once !== null ? { at: once } : { cron: cron! },
      enabled,
      ...(cron !== null ? { cronWasUtc: true } : {}),
    });
  };
  for (const [i, raw] of data.entries()) readOne(raw, i);
  return plan;
}
