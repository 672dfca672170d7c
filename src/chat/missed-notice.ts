/**
 * @module What the chat is told of runs missed while the bot was offline (docs/time.md#missed-runs), in its language: a
 * job whose policy is `ask` gets one message naming the missed times with Run now and Skip (`missedButtons`), and a
 * one-off whose policy is `skip` one line saying it was dropped. Nothing for the other policies. And the log line that
 * says what missed runs did.
 */
import type { FireDecision } from "../jobs/fire";
import type { MissedAsk } from "../jobs/missed";
import type { ButtonRows } from "../schemas/chats";
import { missedButtons } from "../telegram/buttons";
import type { Texts } from "../texts";
import { formatChatTime } from "../time";

/** The message, its buttons, the occurrence it names last (the run id its buttons act on), and whether the job is gone. */
export type MissedNotice = { markdown: string; buttons: ButtonRows | null; dueAt: number; drop: boolean };

/** The chat's message about a decision's missed occurrences, or null when there is none to send. */
export function missedNotice(decision: Extract<FireDecision, { action: "claim" | "missed" }>, zone: string, now: number, t: Texts): MissedNotice | null {
  const { job } = decision;
  const at = (instant: number) => formatChatTime(instant, zone, now, t.dates);
  if (decision.action === "missed" && decision.drop) {
    const dueAt = job.schedule.type === "at" ? job.schedule.at : (job.nextRunAt ?? now);
    return { markdown: t.missed.dropped(job.name, job.id, at(dueAt)), buttons: null, dueAt, drop: true };
  }
  const ask: MissedAsk | null | undefined = decision.ask;
  if (!ask) return null;
  const buttons = missedButtons(job.id, ask.first, ask.last, t.buttons);
  if (ask.total === 1) return { markdown: t.missed.askOne(job.name, job.id, at(ask.last)), buttons, dueAt: ask.last, drop: false };
  const times = ask.shown.map(at);
  const more = ask.total - ask.shown.length;
  const list = t.zone.and(more > 0 ? [t.missed.more(more), ...times] : times);
  return { markdown: t.missed.askMany(job.name, job.id, ask.total, list), buttons, dueAt: ask.last, drop: false };
}

/** A job that came back after missing occurrences says so in the log (docs/time.md#missed-runs). */
export function noteMissed(decision: Extract<FireDecision, { action: "claim" | "missed" }>): void {
  const parts: string[] = [];
  // One late run with nothing passed over is the late line's alone; the log speaks of more.
  if (decision.action === "claim" && decision.missed > (decision.run.late ? 1 : 0))
    parts.push(decision.run.late ? `${decision.missed} missed, the latest run late` : `${decision.missed} missed, passed over for the one due now`);
  const skipped = decision.skipped?.length ?? 0;
  if (skipped > 0) parts.push(`${skipped} recorded skipped`);
  if (decision.ask) parts.push("the chat is asked");
  if (decision.action === "missed" && decision.drop) parts.push("the one-off is dropped");
  if (parts.length > 0) console.log(`job ${decision.job.id}: missed runs (${decision.job.missed}): ${parts.join("; ")}`);
}
