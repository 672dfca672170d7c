/**
 * @module Importing jobs into the chat (DESIGN §10 `POST /admin/import`; issue 16): the entries the edge read
 * from a store Cuckoo replaces become jobs of this chat, checked by the same rules as a create, except that a
 * one-off already past is taken (it fires at once, late, as the old store would have). Idempotent: a source
 * id imported before (its job may be gone since) is skipped. The zone the source kept for the chat is taken
 * when the chat has none of its own. Every entry left out is one sentence; the rest is imported.
 */
import type { Config } from "../config";
import { nextCronRun } from "../jobs/fire";
import { newJobRecord } from "../jobs/records";
import { tooManyJobsText } from "../jobs/texts";
import { validateCreate } from "../jobs/validate";
import { err, ok, type Result } from "../result";
import { importBatch, type ImportBatch, type ImportEntry, type ImportReply } from "../schemas/import";
import { firstSentence, sentenceFor } from "../sentence";
import { loadCron, parseZone } from "../time";
import type { ChatInfo } from "./info";
import type { JobOps } from "./jobs";
import type { ImportStore } from "./store/imports";
import type { JobStore } from "./store/jobs";

export type ImportDeps = {
  jobs: JobStore;
  imports: ImportStore;
  /** The zone change (cron jobs follow it) and fresh job ids. */
  jobOps: JobOps;
  info: ChatInfo;
  config: () => Config;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/** The create fields of an entry, in the chat's zone: an undated commitment's next 09:00 there as its `at`. */
function createInput(entry: ImportEntry, zone: string, now: number) {
  const when = "nextAt" in entry.when ? { at: new Date(nextCronRun("0 9 * * *", zone, now) ?? now).toISOString() } : entry.when;
  return { ...entry.job, ...when };
}

export class Imports {
  constructor(private readonly d: ImportDeps) {}

  async importJobs(chatId: string, input: ImportBatch): Promise<Result<ImportReply>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = importBatch().safeParse(input, { error: sentenceFor });
    if (!parsed.success) return err("bad_request", firstSentence(parsed.error));
    if (!this.d.info.allowed(chatId)) {
      return err("bad_request", `Chat ${chatId} is not allowed to use this bot; add its user id to ALLOWED_USER_IDS first. Its jobs were not imported.`);
    }
    const batch = parsed.data;
    // An undated commitment's next 09:00 and every cron entry need the cron parser (loaded on first need).
    await loadCron();
    const problems: string[] = [];
    if (batch.zone !== null) problems.push(...(await this.takeZone(chatId, batch.source, batch.zone)));
    const reply: ImportReply = { created: 0, skipped: 0, problems };
    const limit = this.d.config().maxJobsPerChat;
    for (const entry of batch.entries) {
      if (this.d.imports.has(entry.sourceId)) {
        reply.skipped++;
        continue;
      }
      const zone = this.d.info.zone().zone;
      const now = this.d.now();
      const valid = await validateCreate(createInput(entry, zone, now), { zone, now, pastAllowed: true });
      if (!valid.ok) {
        problems.push(`${entry.label}: ${valid.error} It was left out.`);
        continue;
      }
      // Checked again after the await: another import of the same data may have landed in between.
      const created = this.d.transaction(() => {
        if (this.d.imports.has(entry.sourceId)) return "skipped";
        if (this.d.jobs.count() >= limit) return "full";
        const job = newJobRecord(valid.value.spec, {
          id: this.d.jobOps.freshId(),
          createdAt: now,
          createdBy: "admin",
          nextRunAt: valid.value.nextRunAt,
          enabled: entry.enabled,
          importedFrom: entry.sourceId,
        });
        this.d.jobs.insert(job);
        this.d.imports.add(entry.sourceId, job.id, now);
        return "created";
      });
      if (created === "skipped") reply.skipped++;
      else if (created === "full") problems.push(`${entry.label} was left out: ${tooManyJobsText(limit)}`);
      else {
        reply.created++;
        if (entry.cronWasUtc && "cron" in entry.when && zone !== "UTC") {
          problems.push(`${entry.label}: ${batch.source} ran its cron "${entry.when.cron}" in UTC; it now follows this chat's zone, ${zone}. Edit it if it should keep its UTC times.`);
        }
      }
    }
    return ok(reply);
  }

  /** The zone a source kept for the chat: taken when the chat has none of its own; else a sentence when it differs. */
  private async takeZone(chatId: string, source: string, raw: string): Promise<string[]> {
    const zone = parseZone(raw);
    if (!zone.ok) return [`${source}'s zone for chat ${chatId} is not a time zone (${JSON.stringify(raw.slice(0, 60))}); the chat keeps ${this.d.info.zone().zone}.`];
    const current = this.d.info.zone();
    if (!current.isDefault) {
      return current.zone === zone.value ? [] : [`Chat ${chatId} keeps its own zone, ${current.zone}; ${source} had ${zone.value}.`];
    }
    const changed = await this.d.jobOps.setTimeZone(chatId, zone.value);
    return changed.ok ? [] : [changed.error.message];
  }
}
