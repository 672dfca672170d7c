/**
 * @module Reminders that nag until done (docs/telegram.md#nag-until-done): a prompt job's `repeat` sends its run's message
 * again (the agent's reply, not another turn) `every` after the last copy, up to `times` more, each marked (`2nd
 * reminder`) and carrying the buttons, while the copy before gives way to one inert line, in the transcript and in
 * Telegram; a press on any copy ends it. One row per run beside the chat's jobs: the chat's one alarm covers them, no
 * alarm of their own. Quiet hours make a copy silent, never more frequent.
 */
import type { Repeat } from "../jobs/records";
import { answeredButtons } from "../telegram/buttons";
import { loadedTexts } from "../texts";
import type { Deliveries } from "./deliveries";
import type { ChatInfo } from "./info";
import type { NagStore } from "./store/nags";
import type { OutboxStore } from "./store/outbox";
import type { TranscriptStore } from "./store/transcript";

export type NagDeps = {
  nags: NagStore;
  transcript: TranscriptStore;
  outbox: OutboxStore;
  deliveries: Deliveries;
  info: ChatInfo;
  transaction: <T>(work: () => T) => T;
};

export class Nags {
  constructor(private readonly d: NagDeps) {}

  /** A run's message was delivered: it nags from now, as its job's `repeat` says (inside the delivery's transaction). */
  start(runId: string, jobId: string, markdown: string, repeat: Repeat, silent: boolean, now: number): void {
    const everyMs = repeat.everySeconds * 1000;
    // On the whole second: the copies of runs answered within one second come due together, in one alarm run.
    const nextAt = Math.ceil((now + everyMs) / 1000) * 1000;
    this.d.nags.start({ runId, jobId, markdown, everyMs, left: repeat.times, n: 1, nextAt, silent });
  }

  /** Someone pressed a copy of the run's message: no more copies. */
  end(runId: string): void {
    this.d.nags.end(runId);
  }

  soonest(): number | null {
    return this.d.nags.soonest();
  }

  /** The alarm's part: each copy due, sent once (keyed by the run and its number), the copy before made inert. */
  async tick(now: number): Promise<boolean> {
    const due = this.d.nags.due(now);
    if (due.length === 0) return false;
    const t = loadedTexts(this.d.info.language());
    for (const nag of due) {
      this.d.transaction(() => {
        const latest = this.d.transcript.jobMessage(nag.runId);
        const live = latest?.buttons?.some((row) => row.some((b) => "data" in b && !b.data.startsWith("a:"))) === true;
        // Acted on (its buttons answered), or its message gone: nothing more to say. (A one-off's job is gone once its run ended.)
        if (latest === null || !live) {
          this.d.nags.end(nag.runId);
          return;
        }
        const n = nag.n + 1;
        const origin = { source: "job" as const, jobId: nag.jobId, runId: nag.runId };
        const text = `${t.nag.mark(n)}\n${nag.markdown}`;
        this.d.deliveries.write(`nag:${nag.runId}:${n}`, text, { origin, now, buttons: latest.buttons, jobCopy: latest.copy, silent: nag.silent });
        // The copy before gives way: one inert line in place of its buttons, here and in Telegram.
        const inert = answeredButtons(t.buttons.sentAgainLine, nag.runId);
        this.d.transcript.setButtons(latest.entryId, inert);
        if (this.d.info.canSend())
          this.d.outbox.enqueueOutbox(
            { key: `edit:${nag.runId}:${n}`, markdown: "", jobId: nag.jobId, runId: nag.runId, buttons: JSON.stringify(inert), editOf: latest.entryId },
            now,
          );
        this.d.nags.sent(nag);
      });
    }
    this.d.deliveries.flush();
    return false;
  }
}
