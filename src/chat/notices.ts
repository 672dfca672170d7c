/**
 * @module Notices ahead of a run (docs/telegram.md#notices-ahead): a job's `before` (`P1D`, `PT1H`) sends, that long
 * before each run, a short notice in the chat's language (`In 1 h: **Dentist** (Tue 8 Dec 09:00)`) with Skip this
 * one; no agent turn. The store keeps each job's next notice instant beside it, so that the chat's one alarm covers
 * them: no alarm of their own. Each notice is keyed by its run and how far ahead it is, so it is sent once.
 */
import { runIdOf } from "../contracts/run-id";
import { noticeButtons } from "../telegram/buttons";
import { loadedTexts } from "../texts";
import { type DateWords, formatDistance, formatWeekdayTime } from "../time";
import type { Deliveries } from "./deliveries";
import type { ChatInfo } from "./info";
import type { JobStore } from "./store/jobs";

/** How far ahead, as it was asked: whole days as days (`P1D` is `in 1 day`, not `in 24 h`), else as `formatDistance` says. */
function aheadText(ms: number, words: DateWords): string {
  if (ms % 86_400_000 === 0) return words.inDays(ms / 86_400_000, 0);
  return formatDistance(ms, words);
}

/** A notice this late is not sent: it would say a time ahead that is no longer so. */
const NOTICE_LATE_MS = 60_000;

export type NoticeDeps = {
  jobs: JobStore;
  info: ChatInfo;
  deliveries: Deliveries;
  transaction: <T>(work: () => T) => T;
};

export class Notices {
  constructor(private readonly d: NoticeDeps) {}

  /** The alarm's part: each notice due, sent once, and its job's next one found. Never fails the alarm. */
  async tick(now: number): Promise<boolean> {
    const due = this.d.jobs.noticesDue(now);
    if (due.length === 0) return false;
    const zone = this.d.info.zone().zone;
    const t = loadedTexts(this.d.info.language());
    for (const row of due) {
      if (!row.ok) continue;
      const job = row.job;
      this.d.transaction(() => {
        const runAt = job.nextRunAt;
        // A notice whose run has come (or gone), or that is more than a minute late (the bot was offline), is passed over.
        if (runAt !== null && runAt > now && job.noticeAt !== null && now - job.noticeAt <= NOTICE_LATE_MS) {
          const ahead = runAt - job.noticeAt;
          const runId = runIdOf(job.id, runAt);
          const text = t.before.notice(aheadText(ahead, t.dates), job.name, formatWeekdayTime(runAt, zone, now, t.dates));
          const origin = { source: "alert" as const, jobId: job.id, runId };
          this.d.deliveries.write(`notice:${runId}:${ahead}`, text, { origin, now, silent: job.silent, buttons: noticeButtons(runId, t.buttons) });
        }
        this.d.jobs.noticeSent(job);
      });
    }
    this.d.deliveries.flush();
    return false;
  }
}
