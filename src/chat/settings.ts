/**
 * @module The chat's settings (docs/api.md, docs/time.md, docs/telegram.md): its zone, whose change moves every
 * recurring job's next run and its skips by hand (each a decision of the firing core, `decideZoneChange`, written by
 * `Firing.apply`), its language, its quiet hours, and the default-zone notice told once.
 */
import type { Config } from "../config";
import { decideZoneChange, ZONE_SPAN_MS } from "../jobs/by-hand";
import { modelProblem, turnModel } from "../jobs/model";
import type { RunRecord } from "../jobs/records";
import { zoneChangedText } from "../jobs/texts";
import { err, ok, type Result } from "../result";
import { type ChatSettings, type ModelAnswer, type QuietAnswer, quietBody, type ZoneChange } from "../schemas/chats";
import { parseArgs } from "../sentence";
import { voiceOf } from "../texts";
import { parseZone } from "../time";
import { LANGS, type Lang } from "../words";
import type { Agenda } from "./agenda";
import type { Firing } from "./firing";
import type { ChatInfo } from "./info";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { SettingsStore } from "./store/settings";

export type SettingsDeps = {
  settings: SettingsStore;
  jobs: JobStore;
  runs: Pick<RunStore, "skippedAfter">;
  info: ChatInfo;
  /** The one writer of the firing core's decisions. */
  firing: Pick<Firing, "apply">;
  /** The daily agenda, which a zone change moves to its time in the new zone. */
  agenda: Pick<Agenda, "rearm">;
  config: () => Config;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

export class SettingsOps {
  constructor(private readonly d: SettingsDeps) {}

  getSettings(chatId: string): Result<ChatSettings> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    return ok({ chatId, timeZone: this.d.info.zone().zone, isDefault: this.d.info.zone().isDefault });
  }

  /**
   * Sets (or with null, resets) the chat's zone: every recurring job's next run is recomputed in the new zone
   * strictly after now, with no catch-up (a rule's `start` stays the same local time, so the rule is expanded
   * anew there); one-offs keep their instant (docs/time.md). An occurrence skipped by hand stays skipped: the skip
   * moves to the same wall-clock time in the new zone, also when the zone is the one the chat had. A job whose next
   * run would now fall after its `until` has ended: it goes, or, with its last run in flight, goes when that run settles.
   */
  async setTimeZone(chatId: string, input: string | null, language: string | null = null): Promise<Result<ZoneChange>> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    // The message in the language of the person who asked (a command); the API's stays English.
    const voice = await voiceOf(language);
    let zone: string | null = null;
    if (input !== null) {
      const parsed = parseZone(input);
      if (!parsed.ok) return err("bad_request", parsed.error);
      zone = parsed.value;
    }
    const now = this.d.now();
    let cronJobs = 0;
    const oneOffs: number[] = [];
    this.d.transaction(() => {
      const from = this.d.info.zone().zone;
      const skips = skipsByJob(this.d.runs.skippedAfter(now - ZONE_SPAN_MS));
      this.d.settings.set("time_zone", zone);
      // A chat that chose its zone (or went back to the default on purpose) knows where its times are.
      if (this.d.settings.get("zone_told") === null) this.d.settings.set("zone_told", String(now));
      const effective = this.d.info.zone().zone;
      for (const row of this.d.jobs.rows()) {
        if (!row.ok) continue;
        const job = row.job;
        if (job.schedule.type === "at") {
          oneOffs.push(job.schedule.at);
          continue;
        }
        const decision = decideZoneChange(job, { from, to: effective }, now, skips.get(job.id));
        if (decision?.action !== "end") cronJobs++;
        if (decision !== null) this.d.firing.apply(decision, now);
      }
      this.d.agenda.rearm(now);
    });
    const { zone: effective, isDefault } = this.d.info.zone();
    return ok({
      chatId,
      timeZone: effective,
      isDefault,
      cronJobs,
      oneOffs: oneOffs.length,
      message: zoneChangedText(effective, isDefault, now, cronJobs, oneOffs, voice),
    });
  }

  /** The chat's language (docs/telegram.md#language), and whether `/language` chose it. */
  getLanguage(chatId: string): Result<{ language: Lang; chosen: boolean }> {
    const bound = this.d.info.bind(chatId);
    return bound.ok ? ok({ language: this.d.info.language(), chosen: this.d.info.chosenLanguage() !== null }) : bound;
  }

  /** Sets the chat's language (one of the eight), or with null lets it follow its messages' languages again. */
  setLanguage(chatId: string, language: Lang | null): Result<{ language: Lang; chosen: boolean }> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    if (language !== null && !(LANGS as readonly unknown[]).includes(language)) return err("bad_request", `"language" must be one of ${LANGS.join(", ")}.`);
    this.d.info.setLanguage(language);
    return this.getLanguage(chatId);
  }

  /** The chat's model (docs/agent.md#models): its own (null: the bot's default), the one its turns run on, the choices. */
  getModel(chatId: string): Result<ModelAnswer> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const choices = [...this.d.config().agent.models];
    const own = this.d.info.model();
    return ok({ model: own, effective: turnModel(null, own, choices).model, choices });
  }

  /** Sets the chat's model (one of the bot's), or with null goes back to the bot's default. */
  setModel(chatId: string, model: string | null): Result<ModelAnswer> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const problem = model === null ? null : modelProblem(model, this.d.config().agent.models);
    if (problem !== null) return err("bad_request", problem);
    this.d.info.setModel(model === this.d.config().agent.models[0] ? null : model);
    return this.getModel(chatId);
  }

  /** The chat's quiet hours (docs/telegram.md), or null. */
  getQuiet(chatId: string): Result<QuietAnswer> {
    const bound = this.d.info.bind(chatId);
    return bound.ok ? ok({ quiet: this.d.info.quiet() }) : bound;
  }

  /** Sets the chat's quiet hours (`{ quiet: { from, to } }`), or clears them (`{ quiet: null }`). */
  setQuiet(chatId: string, body: unknown): Result<QuietAnswer> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const parsed = parseArgs(quietBody(), body);
    if (!parsed.ok) return parsed;
    this.d.info.setQuiet(parsed.value.quiet);
    return ok({ quiet: this.d.info.quiet() });
  }

  /**
   * The zone the default-zone notice names (docs/telegram.md), told once: to a chat that follows DEFAULT_TIMEZONE, on
   * the reply that creates a job, the first time; else null. When it was told (or the chat set a zone) is kept in the chat's settings
   * (`zone_told`), so it is never told again, whatever the chat does next.
   */
  zoneNotice(chatId: string): string | null {
    if (!this.d.info.bind(chatId).ok) return null;
    const { zone, isDefault } = this.d.info.zone();
    if (!isDefault || this.d.settings.get("zone_told") !== null) return null;
    this.d.settings.set("zone_told", String(this.d.now()));
    return zone;
  }
}

/** Runs by the job they are of. */
function skipsByJob(runs: readonly RunRecord[]): Map<string, RunRecord[]> {
  const out = new Map<string, RunRecord[]>();
  for (const run of runs) out.set(run.jobId, [...(out.get(run.jobId) ?? []), run]);
  return out;
}
