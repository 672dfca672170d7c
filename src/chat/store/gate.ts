/**
 * @module The agent run gate's tables (DESIGN §7): the one holder (token, lease, the prompt it works on) and
 * the prompts waiting behind it, in order. SQL only; the rules are src/chat/gate.ts.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import type { Db } from "./db";

export type GateState = { token: string; leaseUntil: number; activeKey: string | null; activeMessage: string | null };

const gateRow = lazy(() =>
  z.object({ token: z.string(), lease_until: z.number().int(), active_key: z.string().nullable(), active_message: z.string().nullable() }),
);

/**
 * The holder is read several times in one offer and one alarm (expired? held by whom? when does its lease
 * end?), so the row read is kept in memory, as the settings are: the object is the database's only writer,
 * every write goes through `setGate`, which forgets it first, and a rolled-back transaction or an erase
 * forgets it too (`forget`).
 */
export class GateStore {
  private known: GateState | null | undefined = undefined;

  constructor(private readonly db: Db) {}

  gate(): GateState | null {
    if (this.known !== undefined) return this.known;
    this.known = this.read();
    return this.known;
  }

  private read(): GateState | null {
    const row = this.db.sql.exec("SELECT token, lease_until, active_key, active_message FROM gate WHERE id = 1").toArray()[0];
    if (!row) return null;
    const r = gateRow().safeParse(row);
    if (!r.success) return null;
    return { token: r.data.token, leaseUntil: r.data.lease_until, activeKey: r.data.active_key, activeMessage: r.data.active_message };
  }

  /** Forgets the holder read (after a rolled-back transaction, or when the database was erased). */
  forget(): void {
    this.known = undefined;
  }

  setGate(state: GateState | null): void {
    this.known = undefined;
    if (state === null) {
      this.db.sql.exec("DELETE FROM gate WHERE id = 1");
      return;
    }
    this.db.sql.exec(
      "INSERT INTO gate (id, token, lease_until, active_key, active_message) VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until, active_key = excluded.active_key, active_message = excluded.active_message",
      state.token,
      state.leaseUntil,
      state.activeKey,
      state.activeMessage,
    );
  }

  isPending(key: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM pending WHERE key = ?", key).toArray().length > 0;
  }

  addPending(key: string, message: string, at: number, first = false): void {
    if (first) {
      const min = this.db.sql.exec<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM pending").one().seq;
      if (min !== null) {
        this.db.sql.exec("INSERT INTO pending (seq, key, message, received_at) VALUES (?, ?, ?, ?)", min - 1, key, message, at);
        return;
      }
    }
    this.db.sql.exec("INSERT INTO pending (key, message, received_at) VALUES (?, ?, ?)", key, message, at);
  }

  /** Removes and returns the oldest pending prompt's JSON, or null. */
  takePending(key?: string): { key: string; message: string } | null {
    const row = (
      key === undefined
        ? this.db.sql.exec<{ seq: number; key: string; message: string }>("SELECT seq, key, message FROM pending ORDER BY seq LIMIT 1")
        : this.db.sql.exec<{ seq: number; key: string; message: string }>("SELECT seq, key, message FROM pending WHERE key = ?", key)
    ).toArray()[0];
    if (!row) return null;
    this.db.sql.exec("DELETE FROM pending WHERE seq = ?", row.seq);
    return { key: row.key, message: row.message };
  }

  oldestPending(): { key: string; message: string } | null {
    return this.db.sql.exec<{ key: string; message: string }>("SELECT key, message FROM pending ORDER BY seq LIMIT 1").toArray()[0] ?? null;
  }

  /** When the gate's lease runs out (for the alarm). */
  gateDeadline(): number | null {
    return this.gate()?.leaseUntil ?? null;
  }
}
