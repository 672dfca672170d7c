/**
 * @module The chat's rows in the D1 directory (docs/design/0008-layout.md, docs/api.md): a read-only projection for the cross-chat
 * lists, written by the chat's object after its own write, and only when something the directory shows
 * changed (a job or the chat's settings; never a cron job's fire). Eventual and never in the way: a failed or
 * slow D1 write is logged and marked in the object's own SQLite, calls leave D1 alone until the retry time, and
 * then the alarm (which comes back for it) or the next call writes the difference again. The statements are
 * `directory/write.ts`'s, upserts keyed by chat and job, so a repeat doubles nothing.
 */
import { type Change, diff, type Projected, project } from "../directory/projection";
import { changeStatements } from "../directory/write";
import type { ChatInfo } from "./info";
import type { DirectoryStore } from "./store/directory";
import type { JobStore } from "./store/jobs";

/** A D1 write that has not answered by then counts as failed (it may still land; the retry is idempotent). */
export const DIRECTORY_WRITE_LIMIT_MS = 3_000;
/** After a failed write, the alarm tries again this soon. */
export const DIRECTORY_RETRY_MS = 60_000;

export type DirectoryDeps = {
  db: () => D1Database;
  store: DirectoryStore;
  jobs: JobStore;
  info: ChatInfo;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

export class Directory {
  /** One sync at a time: a call that arrives meanwhile waits for it and then looks again. */
  private running: Promise<void> | null = null;
  private again = false;
  /**
   * What the chat's state was at the last sync that D1 took (or that found nothing to write): the jobs' and
   * the settings' change counts and the zone its cron rows run in. While it is the same, nothing the
   * directory shows can have changed, and a sync reads nothing (every call and alarm syncs).
   */
  private synced: string | null = null;

  constructor(private readonly d: DirectoryDeps) {}

  /** Writes what changed since the last write; never throws. */
  async sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.once(false);
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /**
   * Writes this chat's rows again from scratch (after a D1 restore): every row of `chatId` deleted, the current
   * ones inserted. An object bound to no chat (never used, or erased) only deletes. Returns whether D1 took it.
   */
  async rebuild(chatId: string): Promise<boolean> {
    await this.running;
    const bound = this.d.info.chatId();
    if (bound !== null && bound !== chatId) return false;
    if (bound === null) return this.write(chatId, { upserts: [], removals: [] }, true);
    return this.once(true);
  }

  /** When the alarm should come back for a failed write. */
  retryAt(): number | null {
    return this.d.store.retryAt();
  }

  /** Forgets the last sync's state (the database was erased, or a transaction rolled back). */
  forget(): void {
    this.synced = null;
    this.d.store.forget();
  }

  private state(): string {
    return `${this.d.jobs.changes()}:${this.d.info.settingsChanges()}:${this.d.info.zone().zone}`;
  }

  private async once(fresh: boolean): Promise<boolean> {
    const chatId = this.d.info.chatId();
    // Whenever there is nothing to write, a retry still marked is done with: the alarm must not come back for it.
    if (chatId === null) return this.nothingToWrite();
    // Taken before the projection is read: a write while D1 is being written makes the next sync look again.
    const state = this.state();
    if (!fresh && state === this.synced) return this.nothingToWrite();
    // After a failed write, calls leave D1 alone until the retry time (the alarm comes then): a D1 that hangs
    // costs one call the time limit, not every call.
    const retryAt = this.d.store.retryAt();
    if (!fresh && retryAt !== null && this.d.now() < retryAt) return false;
    const projected = this.projected(chatId);
    const change = diff(projected, fresh ? new Map() : this.d.store.fingerprints());
    const landed = !fresh && change.upserts.length === 0 && change.removals.length === 0 ? this.nothingToWrite() : await this.write(chatId, change, fresh);
    if (landed) this.synced = state;
    return landed;
  }

  /** A sync that needs no D1 write (a change undone while D1 was down ends its retry too). */
  private nothingToWrite(): true {
    this.d.store.clearRetry();
    return true;
  }

  private projected(chatId: string): Projected[] {
    const zone = this.d.info.zone();
    const chat = {
      chatId,
      ownZone: zone.isDefault ? null : zone.zone,
      zone: zone.zone,
      blocked: this.d.info.blocked(),
      movedFrom: this.d.info.movedFrom(),
      calendar: this.d.info.calendar(),
    };
    return project(chat, this.d.jobs.facts());
  }

  /** One D1 batch (a transaction) for the change; the fingerprints are remembered only when it landed. */
  private async write(chatId: string, change: Change, fresh: boolean): Promise<boolean> {
    const db = this.d.db();
    const now = this.d.now();
    const statements = changeStatements(db, chatId, change, fresh, now);
    if (statements.length === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${DIRECTORY_WRITE_LIMIT_MS / 1000} s`)), DIRECTORY_WRITE_LIMIT_MS);
      });
      await Promise.race([db.batch(statements), limit]);
    } catch (error) {
      // An object bound to no chat (erased) has nothing for its alarm to write again: its caller repeats.
      if (this.d.info.chatId() === null) {
        console.error(`directory: could not remove chat ${chatId}'s rows`, error);
        return false;
      }
      const retryAt = now + DIRECTORY_RETRY_MS;
      console.error(`directory: could not write chat ${chatId}'s rows; trying again from ${new Date(retryAt).toISOString()}`, error);
      if (fresh) {
        // A rebuild that did not land: the retry writes every row again (a new last-sync state is needed for it).
        this.synced = null;
        this.d.store.forgetFingerprints();
      }
      this.d.store.markRetry(retryAt);
      return false;
    } finally {
      clearTimeout(timer);
    }
    this.d.transaction(() => {
      if (fresh) this.d.store.forgetFingerprints();
      this.d.store.remember(change.upserts, change.removals);
    });
    return true;
  }
}
