/**
 * @module User messages on their way to the run gate (docs/agent.md#the-lease): each one queued for the agent is kept
 * here with a deadline until the gate has seen it, so that one lost between the queue and the agent (a crash,
 * a lost message) is sent again instead of vanishing.
 */
import type { Db } from "./db";

export type UserPrompt = { key: string; message: string; deadline: number; resends: number };

export class UserPromptStore {
  constructor(private readonly db: Db) {}

  add(key: string, message: string, deadline: number): void {
    this.db.sql.exec("INSERT INTO user_prompts (key, message, deadline) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING", key, message, deadline);
  }

  /** The gate has it now (or nothing will answer it): forget it. */
  remove(key: string): void {
    this.db.sql.exec("DELETE FROM user_prompts WHERE key = ?", key);
  }

  /** Messages whose deadline has come, oldest first. */
  due(now: number): UserPrompt[] {
    return this.db.sql.exec<UserPrompt>("SELECT key, message, deadline, resends FROM user_prompts WHERE deadline <= ? ORDER BY deadline, key", now).toArray();
  }

  /** Sent again: counted, with a new deadline. */
  resent(key: string, deadline: number): void {
    this.db.sql.exec("UPDATE user_prompts SET resends = resends + 1, deadline = ? WHERE key = ?", deadline, key);
  }

  soonest(): number | null {
    return this.db.sql.exec<{ t: number | null }>("SELECT MIN(deadline) AS t FROM user_prompts").one().t;
  }
}
