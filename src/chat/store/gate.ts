/**
 * @module The agent run gate's tables (docs/agent.md): the one holder (token, lease, the prompt it works on, and
 * for a model turn the prompt it saw, its failed tries and when its next try is due) and the prompts waiting
 * behind it, in order (a turn put back keeps what it had). SQL only; the rules are src/chat/gate.ts.
 */
import * as z from "zod";
import { lazy } from "../../lazy";
import type { Db } from "./db";

/**
 * A model turn as the gate keeps it (docs/agent.md): the prompt it saw (under the header of its first try; null
 * for an echo turn or an agent of your own) and how many of its tries failed.
 */
export type TurnState = { prompt: string | null; tries: number };

/**
 * The holder. `token` "" holds it for the active turn itself while it waits for its next try (until
 * `retryAt`), and after its prompt was sent again for that try, until a consumer offers it.
 */
export type GateState = TurnState & { token: string; leaseUntil: number; activeKey: string | null; activeMessage: string | null; retryAt: number | null };

/** A prompt waiting in line, with what its turn had when it was put back. */
export type Pending = TurnState & { key: string; message: string };

const NO_TURN: TurnState = { prompt: null, tries: 0 };

const gateRow = lazy(() =>
  z.object({
    token: z.string(),
    lease_until: z.number().int(),
    active_key: z.string().nullable(),
    active_message: z.string().nullable(),
    prompt: z.string().nullable(),
    tries: z.number().int(),
    retry_at: z.number().int().nullable(),
  }),
);

const pendingRow = lazy(() =>
  z.object({ seq: z.number().int(), key: z.string(), message: z.string(), prompt: z.string().nullable(), tries: z.number().int() }),
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
    const row = this.db.sql.exec("SELECT token, lease_until, active_key, active_message, prompt, tries, retry_at FROM gate WHERE id = 1").toArray()[0];
    if (!row) return null;
    const r = gateRow().safeParse(row);
    if (!r.success) return null;
    const { token, lease_until, active_key, active_message, prompt, tries, retry_at } = r.data;
    return { token, leaseUntil: lease_until, activeKey: active_key, activeMessage: active_message, prompt, tries, retryAt: retry_at };
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
      "INSERT INTO gate (id, token, lease_until, active_key, active_message, prompt, tries, retry_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?) " +
        "ON CONFLICT (id) DO UPDATE SET token = excluded.token, lease_until = excluded.lease_until, active_key = excluded.active_key, " +
        "active_message = excluded.active_message, prompt = excluded.prompt, tries = excluded.tries, retry_at = excluded.retry_at",
      state.token,
      state.leaseUntil,
      state.activeKey,
      state.activeMessage,
      state.prompt,
      state.tries,
      state.retryAt,
    );
  }

  isPending(key: string): boolean {
    return this.db.sql.exec("SELECT 1 FROM pending WHERE key = ?", key).toArray().length > 0;
  }

  /** A prompt joins the line at `at`: last, or `first` when its turn is put back, with what that turn had. */
  addPending(key: string, message: string, place: { at: number; first?: TurnState }): void {
    const { at } = place;
    const turn = place.first ?? NO_TURN;
    if (place.first) {
      const min = this.db.sql.exec<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM pending").one().seq;
      if (min !== null) {
        this.db.sql.exec(
          "INSERT INTO pending (seq, key, message, received_at, prompt, tries) VALUES (?, ?, ?, ?, ?, ?)",
          min - 1,
          key,
          message,
          at,
          turn.prompt,
          turn.tries,
        );
        return;
      }
    }
    this.db.sql.exec("INSERT INTO pending (key, message, received_at, prompt, tries) VALUES (?, ?, ?, ?, ?)", key, message, at, turn.prompt, turn.tries);
  }

  /** Removes and returns the oldest pending prompt (or `key`'s), or null. */
  takePending(key?: string): Pending | null {
    const row = (
      key === undefined
        ? this.db.sql.exec("SELECT seq, key, message, prompt, tries FROM pending ORDER BY seq LIMIT 1")
        : this.db.sql.exec("SELECT seq, key, message, prompt, tries FROM pending WHERE key = ?", key)
    ).toArray()[0];
    if (!row) return null;
    const r = pendingRow().safeParse(row);
    this.db.sql.exec("DELETE FROM pending WHERE seq = ?", row.seq ?? null);
    if (!r.success) return null;
    return { key: r.data.key, message: r.data.message, prompt: r.data.prompt, tries: r.data.tries };
  }

  oldestPending(): { key: string; message: string } | null {
    return this.db.sql.exec<{ key: string; message: string }>("SELECT key, message FROM pending ORDER BY seq LIMIT 1").toArray()[0] ?? null;
  }

  /** When the alarm must look at the gate: the waiting turn's next try, else when the lease runs out. */
  gateDeadline(): number | null {
    const gate = this.gate();
    return gate ? (gate.retryAt ?? gate.leaseUntil) : null;
  }
}
