/**
 * @module The chat's daily agenda (docs/telegram.md#agenda): a time of day in the chat's zone (`/agenda 8:00`, `PUT
 * …/agenda`), and the instant of the next one, kept beside it so that the chat's one alarm knows it: no alarm of its
 * own, none per job. At that instant the alarm sends one message listing the rest of the day's runs (`jobs/agenda.ts`),
 * nothing when the day has none, and moves on to the next day's. A zone change moves it to that time in the new zone.
 */
import { type AgendaRun, agendaText, dayRuns } from "../jobs/agenda";
import { skippedByHand } from "../jobs/fire";
import { err, ok, type Result } from "../result";
import type { AgendaAnswer } from "../schemas/chats";
import { loadedTexts } from "../texts";
import { formatLocalDay, nextOccurrence, parseCron, QUIET_TIME } from "../time";
import type { Deliveries } from "./deliveries";
import type { ChatInfo } from "./info";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { SettingsStore } from "./store/settings";

export type AgendaDeps = {
  settings: SettingsStore;
  info: ChatInfo;
  jobs: JobStore;
  runs: Pick<RunStore, "skippedAfter">;
  deliveries: Deliveries;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/** The instant of `HH:mm` in `zone` strictly after `after` (a time a spring-forward skips is its first instant after). */
function nextAt(hm: string, zone: string, after: number): number | null {
  const cron = parseCron(`${Number(hm.slice(3, 5))} ${Number(hm.slice(0, 2))} * * *`);
  return cron.ok ? (nextOccurrence(cron.value, zone, after)?.at ?? null) : null;
}

export class Agenda {
  constructor(private readonly d: AgendaDeps) {}

  /** The chat's agenda time, when it has one. */
  private time(): string | null {
    const hm = this.d.settings.get("agenda");
    return hm !== null && QUIET_TIME.test(hm) ? hm : null;
  }

  /** When the next agenda is sent, or null: the alarm's share. */
  soonest(): number | null {
    const next = Number(this.d.settings.get("agenda_next") ?? Number.NaN);
    return this.time() !== null && Number.isFinite(next) ? next : null;
  }

  get(chatId: string): Result<AgendaAnswer> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const next = this.soonest();
    return ok({ agenda: this.time(), next: next === null ? null : new Date(next).toISOString() });
  }

  /** Sets the agenda's time of day (`HH:mm`), or with null stops it. */
  set(chatId: string, agenda: string | null): Result<AgendaAnswer> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    if (agenda !== null && !QUIET_TIME.test(agenda)) return err("bad_request", `"agenda" must be a time of day as HH:mm, such as "08:00", or null for none.`);
    this.d.transaction(() => {
      this.d.settings.set("agenda", agenda);
      this.rearm(this.d.now());
    });
    return this.get(chatId);
  }

  /** The next agenda after `after`, in the chat's zone as it is now (after a zone change, too). */
  rearm(after: number): void {
    const hm = this.time();
    const next = hm === null ? null : nextAt(hm, this.d.info.zone().zone, after);
    this.d.settings.set("agenda_next", next === null ? null : String(next));
  }

  /**
   * The alarm's part: when the agenda's instant has come, the day's runs from then to the end of the local day, one
   * message (keyed by the day, so a retry or a second alarm sends it once), and the next day's instant. Runs before
   * the firing does, so that a job due at the agenda's own minute is still listed. Never fails the alarm.
   */
  async tick(now: number): Promise<boolean> {
    const due = this.soonest();
    if (due === null || due > now) return false;
    const zone = this.d.info.zone().zone;
    const end = nextAt("00:00", zone, due) ?? due + 86_400_000;
    const t = loadedTexts(this.d.info.language());
    this.d.transaction(() => {
      const jobs = this.d.jobs.rows().flatMap((row) => (row.ok ? [row.job] : []));
      const skips = this.d.runs.skippedAfter(due).filter(skippedByHand);
      const skippedOf = (jobId: string) => new Set(skips.filter((r) => r.jobId === jobId).map((r) => r.dueAt));
      const day: { runs: AgendaRun[]; more: number } = dayRuns(jobs, zone, due, end, skippedOf);
      // An agenda whose day is over (the bot was offline all day) is not sent late; the next day's is.
      const text = now < end ? agendaText(day, zone, due, t) : null;
      if (text !== null) this.d.deliveries.write(`agenda:${formatLocalDay(due, zone)}`, text, { origin: { source: "alert", jobId: null, runId: null }, now });
      this.rearm(Math.max(now, due));
    });
    this.d.deliveries.flush();
    return false;
  }
}
