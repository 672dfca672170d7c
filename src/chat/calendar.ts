/**
 * @module The chat's calendar feed (docs/calendar.md): one private address per chat, `<PUBLIC_URL>/calendar/<token>.ics`,
 * made and replaced (`/calendar new`, `POST …/calendar`) and revoked (`/calendar off`, `DELETE …/calendar`). The token
 * is shown once and only its SHA-256 is kept, in the chat's settings (the D1 directory's `calendars` row routes a
 * fetch here); a fetch whose hash is not the chat's finds nothing. The feed itself is `calendar/feed.ts`'s, built from
 * the jobs as they are at the fetch; a feed built is served again for up to a minute while nothing changed and no run
 * came, so that a calendar (or a leaked address) polling hard costs one build a minute.
 */
import { calendarFeed } from "../calendar/feed";
import { hookHash, newHookToken } from "../hooks/token";
import { skippedByHand } from "../jobs/fire";
import { err, ok, type Result } from "../result";
import type { ChatInfo } from "./info";
import type { JobStore } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { SettingsStore } from "./store/settings";

/** What a fetch of an address that is no chat's feed is answered, whatever the path held (never the token). */
export const NO_CALENDAR = "No calendar at this address.";

export type CalendarDeps = {
  settings: SettingsStore;
  info: ChatInfo;
  jobs: JobStore;
  runs: Pick<RunStore, "skippedAfter">;
  now: () => number;
};

/** How long a feed built is served again while nothing in the chat changed and no run came (a leaked address polled hard builds one a minute). */
export const FEED_REUSE_MS = 60_000;

export class Calendar {
  /** The feed last built, what it was built from, and until when it holds (the next run, at most a minute on). */
  private last: { key: string; until: number; ics: string } | null = null;

  constructor(private readonly d: CalendarDeps) {}

  /** Makes or replaces the chat's feed address: a new token, returned once; the old address finds nothing from now on. */
  async make(chatId: string): Promise<Result<{ token: string }>> {
    const token = newHookToken();
    const hash = await hookHash(token);
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    this.d.settings.set("calendar", hash);
    return ok({ token });
  }

  /** Revokes the chat's feed address; `had` says whether there was one. */
  revoke(chatId: string): Result<{ had: boolean }> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const had = this.d.settings.get("calendar") !== null;
    if (had) this.d.settings.set("calendar", null);
    return ok({ had });
  }

  /** Whether the chat has a feed address. */
  has(chatId: string): Result<{ calendar: boolean }> {
    const bound = this.d.info.bind(chatId);
    return bound.ok ? ok({ calendar: this.d.settings.get("calendar") !== null }) : bound;
  }

  /**
   * The feed of the chat whose address hashes to `hash`, its UIDs made unique with `host`; not found when the chat's
   * address is another (or none), which a directory row left behind by a revoke can ask.
   */
  feed(chatId: string, hash: string, host: string): Result<{ ics: string }> {
    const own = this.d.settings.get("calendar");
    if (this.d.info.chatId() !== chatId || own === null || own !== hash) return err("not_found", NO_CALENDAR);
    const now = this.d.now();
    const zone = this.d.info.zone().zone;
    // Every write that can change a job's runs counts in `changes()` (a claim does not, but it comes at a run, where
    // the feed built before it stops holding anyway).
    const key = `${this.d.jobs.changes()} ${this.d.info.settingsChanges()} ${zone} ${host}`;
    if (this.last !== null && this.last.key === key && now < this.last.until) return ok({ ics: this.last.ics });
    const jobs = this.d.jobs.rows().flatMap((row) => (row.ok ? [row.job] : []));
    const skips = this.d.runs.skippedAfter(now).filter(skippedByHand);
    const skippedOf = (jobId: string) => new Set(skips.filter((r) => r.jobId === jobId).map((r) => r.dueAt));
    const ics = calendarFeed({ chatId, zone, now, jobs, skippedOf, host, name: "Cuckoo" });
    const soonest = Math.min(...jobs.flatMap((j) => (j.enabled && j.nextRunAt !== null && j.nextRunAt > now ? [j.nextRunAt] : [])));
    this.last = { key, until: Math.min(now + FEED_REUSE_MS, soonest), ics };
    return ok({ ics });
  }
}
