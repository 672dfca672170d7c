/**
 * @module The chat's `directory` table: the fingerprint of each row it last wrote to the D1 directory (`chat`,
 * `job:<id>`) and, after a failed write, when to try again (`retry_at`). The only code that reads or writes it.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import type { Db } from "./db";

const RETRY_KEY = "retry_at";
const row = lazy(() => z.object({ key: z.string(), value: z.string() }));

export class DirectoryStore {
  /** The retry time read (asked on every alarm's re-arm); only `markRetry` and `clearRetry` write it. */
  private knownRetry: number | null | undefined = undefined;

  constructor(private readonly db: Db) {}

  /** Every remembered fingerprint by key (`retry_at` left out). */
  fingerprints(): Map<string, string> {
    const out = new Map<string, string>();
    for (const r of this.db.sql.exec("SELECT key, value FROM directory WHERE key <> ?", RETRY_KEY).toArray()) {
      const parsed = row().safeParse(r);
      if (parsed.success) out.set(parsed.data.key, parsed.data.value);
    }
    return out;
  }

  /** Records what was written: fingerprints set, removed keys dropped, the retry mark cleared. */
  remember(set: readonly { key: string; fingerprint: string }[], removed: readonly string[]): void {
    for (const { key, fingerprint } of set) {
      this.db.sql.exec("INSERT INTO directory (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, fingerprint);
    }
    for (const key of removed) this.db.sql.exec("DELETE FROM directory WHERE key = ?", key);
    this.clearRetry();
  }

  /** Forgets every fingerprint (a rebuild writes everything again). */
  forgetFingerprints(): void {
    this.db.sql.exec("DELETE FROM directory WHERE key <> ?", RETRY_KEY);
  }

  /** Forgets the retry time read (after a rolled-back transaction, or when the database was erased). */
  forget(): void {
    this.knownRetry = undefined;
  }

  /** When the alarm should try a failed write again, or null. */
  retryAt(): number | null {
    if (this.knownRetry !== undefined) return this.knownRetry;
    const r = this.db.sql.exec<{ value: string }>("SELECT value FROM directory WHERE key = ?", RETRY_KEY).toArray()[0];
    const at = r ? Number(r.value) : Number.NaN;
    this.knownRetry = Number.isFinite(at) ? at : null;
    return this.knownRetry;
  }

  markRetry(at: number): void {
    this.knownRetry = undefined;
    this.db.sql.exec("INSERT INTO directory (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", RETRY_KEY, String(at));
  }

  clearRetry(): void {
    if (this.retryAt() === null) return;
    this.knownRetry = undefined;
    this.db.sql.exec("DELETE FROM directory WHERE key = ?", RETRY_KEY);
  }
}
