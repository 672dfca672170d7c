/**
 * @module The steps of model turns in flight (docs/agent.md#the-model-agent-agentllm): under the turn's key and step, the
 * model's answer (written before its tools run) and their results (written before the next model call), kept
 * until the turn's key is settled. SQL only; rows read back are parsed.
 */
import * as z from "zod";
import type { StepAnswer, StepResult, TurnStep } from "../../contracts/turn";
import { lazy } from "../../lazy";
import { type Db, jsonOf } from "./db";

/** Steps of a turn that never settled (a path that forgot it) are dropped this long after they were written. */
const STEPS_KEPT_MS = 86_400_000;

const stepRow = lazy(() => {
  const answer = z.object({ content: z.string().nullable(), calls: z.array(z.object({ id: z.string(), name: z.string(), args: z.string() })) });
  const results = z.array(z.object({ ok: z.boolean(), text: z.string(), data: z.string().optional() }));
  return z.object({ step: z.number().int(), answer: jsonOf(answer), results: jsonOf(results).nullable() });
});

export class TurnStepStore {
  constructor(private readonly db: Db) {}

  /**
   * The turn's recorded steps, in order, up to the first gap or unreadable row (a turn resumes after its last
   * whole step; what follows a gap cannot be its conversation).
   */
  steps(key: string): TurnStep[] {
    const steps: TurnStep[] = [];
    for (const row of this.db.sql.exec("SELECT step, answer, results FROM turn_steps WHERE key = ? ORDER BY step", key)) {
      const r = stepRow().safeParse(row);
      if (!r.success || r.data.step !== steps.length) {
        console.error(`turn ${key}: step ${String(row.step)} is unreadable; resuming before it`);
        break;
      }
      steps.push({ answer: r.data.answer, results: r.data.results });
    }
    return steps;
  }

  /** The model's answer of `step` (a step written again replaces what it had); the first also drops old leftovers. */
  recordAnswer(key: string, step: number, answer: StepAnswer, at: number): void {
    if (step === 0) this.db.sql.exec("DELETE FROM turn_steps WHERE at < ?", at - STEPS_KEPT_MS);
    this.db.sql.exec("INSERT OR REPLACE INTO turn_steps (key, step, at, answer, results) VALUES (?, ?, ?, ?, NULL)", key, step, at, JSON.stringify(answer));
  }

  /** The results of `step`'s calls; false when its answer was not recorded. */
  recordResults(key: string, step: number, results: readonly StepResult[]): boolean {
    const update = this.db.sql.exec("UPDATE turn_steps SET results = ? WHERE key = ? AND step = ?", JSON.stringify(results), key, step);
    update.toArray();
    return update.rowsWritten > 0;
  }

  /** The turn is over (settled, dead-lettered, gone): its steps go. */
  drop(key: string): void {
    this.db.sql.exec("DELETE FROM turn_steps WHERE key = ?", key);
  }
}
