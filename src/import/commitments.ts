/**
 * @module The legacy Commitments (docs/imports.md#commitments), read tolerantly: the text of `commitments.jsonl`, one
 * JSON record a line, `{ id, text, status: "open" | "done", due?: "YYYY-MM-DD" }` (`date` is read for `due`
 * and `content` for `text`). Only open records are imported: a dated one becomes an enabled one-off prompt at
 * 09:00 local on that date; an undated one a paused one-off at the next 09:00 local, its name marked
 * "(no date)", keeping its text and provenance, so that the owner sets a time before resuming it.
 */
import { LIMITS } from "../schemas/jobs";
import { add, emptyPlan, type ImportPlan, idOf, nameFrom, objectOf, quoted, textOf } from "./plan";

const NO_DATE = " (no date)";

/** Reads the commitments of `chatId`. */
export function readCommitments(data: unknown, chatId: string): ImportPlan {
  const plan = emptyPlan("Commitments");
  if (typeof data !== "string") {
    plan.problems.push(`"data" must be the text of commitments.jsonl (one JSON record a line); nothing was imported.`);
    return plan;
  }
  const readOne = (line: string, i: number) => {
    if (line.trim() === "") return;
    const at = `Line ${i + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    const record = objectOf(parsed);
    if (!record) return plan.problems.push(`${at} is not a JSON object; it was left out.`);
    const id = idOf(record.id);
    if (id === null) return plan.problems.push(`${at} has no "id"; it was left out.`);
    const label = `Commitment ${quoted(id)} (line ${i + 1})`;
    const problem = (why: string) => void plan.problems.push(`${label} ${why}; it was left out.`);
    const status = typeof record.status === "string" ? record.status.trim().toLowerCase() : null;
    if (status === "done") return;
    if (status !== "open") return problem(`has a "status" that is not "open" or "done" (${quoted(String(record.status ?? ""))})`);
    const text = textOf(record.text) ?? textOf(record.content);
    if (text === null) return problem(`has no "text"`);
    const dueRaw = record.due ?? record.date;
    if (dueRaw === undefined || dueRaw === null || dueRaw === "") {
      const name = `${nameFrom(text, LIMITS.name - [...NO_DATE].length)}${NO_DATE}`;
      add(plan, chatId, { sourceId: `commitments:${id}`, label, job: { name, kind: "prompt", text }, when: { nextAt: "09:00" }, enabled: false });
      return;
    }
    const due = typeof dueRaw === "string" ? /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(dueRaw.trim())?.[1] : undefined;
    if (!due) return problem(`has a "due" date that is not YYYY-MM-DD (${quoted(String(dueRaw))})`);
    add(plan, chatId, {
      sourceId: `commitments:${id}`,
      label,
      job: { name: nameFrom(text, LIMITS.name), kind: "prompt", text },
      when: { at: due },
      enabled: true,
    });
  };
  for (const [i, line] of data.split(/\r?\n/).entries()) readOne(line, i);
  return plan;
}
