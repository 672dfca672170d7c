/**
 * @module Importing jobs into the chat (docs/api.md `POST /admin/import`; issue 16): the entries the edge read
 * from a store Cuckoo replaces become jobs of this chat, checked by the same rules as a create, except that a
 * one-off already past is taken (it fires at once, late, as the old store would have). Idempotent: a source
 * id imported before (its job may be gone since) is skipped. The zone the source kept for the chat is taken
 * when the chat has none of its own. Every entry left out is one sentence; the rest is imported.
 */
import { nextCronRun } from "../jobs/fire";
import { err, ok, type Result } from "../result";
import { type ImportBatch, type ImportEntry, type ImportReply, importBatch } from "../schemas/import";
import { parseArgs } from "../sentence";
import { formatLocalDateTime, parseZone } from "../time";
import type { ChatInfo } from "./info";
import type { JobOps } from "./jobs";
import type { SettingsOps } from "./settings";
import type { ImportStore } from "./store/imports";

export type ImportDeps = {
  imports: ImportStore;
  /** The job creation path. */
  jobOps: Pick<JobOps, "refusedChat" | "add">;
  /** The zone change (recurring jobs follow it). */
  settings: Pick<SettingsOps, "setTimeZone">;
  info: ChatInfo;
  now: () => number;
};

/**
 * The create fields of an entry, in the chat's zone: an undated commitment's next 09:00 there as its `at`; a
 * rule's start the local minute of now there (its first run is its first instance after now).
 */
function createInput(entry: ImportEntry, zone: string, now: number) {
  const when =
    "nextAt" in entry.when
      ? { at: new Date(nextCronRun("0 9 * * *", zone, now) ?? now).toISOString() }
      : "rrule" in entry.when
        ? { rrule: entry.when.rrule, start: formatLocalDateTime(now, zone) }
        : entry.when;
  return { ...entry.job, ...when };
}

export class Imports {
  constructor(private readonly d: ImportDeps) {}

  async importJobs(chatId: string, input: ImportBatch): Promise<Result<ImportReply>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = parseArgs(importBatch(), input);
    if (!parsed.ok) return parsed;
    const refused = this.d.jobOps.refusedChat(chatId);
    if (refused !== null) return err("bad_request", `${refused} Its jobs were not imported.`);
    const batch = parsed.value;
    const problems: string[] = [];
    if (batch.zone !== null) problems.push(...(await this.takeZone(chatId, batch.source, batch.zone)));
    const reply: ImportReply = { created: 0, skipped: 0, problems };
    for (const entry of batch.entries) {
      if (this.d.imports.has(entry.sourceId)) {
        reply.skipped++;
        continue;
      }
      const zone = this.d.info.zone().zone;
      const added = await this.d.jobOps.add(createInput(entry, zone, this.d.now()), {
        createdBy: "admin",
        pastAllowed: true,
        enabled: entry.enabled,
        importedFrom: entry.sourceId,
        // Checked again in the insert's transaction: another import of the same data may have landed meanwhile.
        claim: (job) => {
          if (this.d.imports.has(entry.sourceId)) return "imported before";
          this.d.imports.add(entry.sourceId, job.id, job.createdAt);
          return null;
        },
      });
      if (!added.ok) {
        if (added.why === "refused") reply.skipped++;
        else if (added.why === "full") problems.push(`${entry.label} was left out: ${added.message}`);
        else problems.push(`${entry.label}: ${added.message} It was left out.`);
        continue;
      }
      reply.created++;
      if (entry.fromCronos !== undefined && "rrule" in entry.when) {
        problems.push(
          `${entry.label}: ${batch.source} (Cronos) ran "${entry.fromCronos}" only on days that match both its day-of-month and its day-of-week, ` +
            `where cron takes either; it was imported as the rule "${entry.when.rrule}", which means the same.`,
        );
      }
      if (entry.cronWasUtc && "cron" in entry.when && zone !== "UTC") {
        problems.push(
          `${entry.label}: ${batch.source} ran its cron "${entry.when.cron}" in UTC; it now follows this chat's zone, ${zone}. ` +
            "Edit it if it should keep its UTC times.",
        );
      }
    }
    return ok(reply);
  }

  /** The zone a source kept for the chat: taken when the chat has none of its own; else a sentence when it differs. */
  private async takeZone(chatId: string, source: string, raw: string): Promise<string[]> {
    const zone = parseZone(raw);
    if (!zone.ok)
      return [`${source}'s zone for chat ${chatId} is not a time zone (${JSON.stringify(raw.slice(0, 60))}); the chat keeps ${this.d.info.zone().zone}.`];
    const current = this.d.info.zone();
    if (!current.isDefault) {
      return current.zone === zone.value ? [] : [`Chat ${chatId} keeps its own zone, ${current.zone}; ${source} had ${zone.value}.`];
    }
    const changed = await this.d.settings.setTimeZone(chatId, zone.value);
    return changed.ok ? [] : [changed.error.message];
  }
}
