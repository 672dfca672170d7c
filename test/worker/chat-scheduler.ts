/**
 * @module The chat object the worker tests run: the real ChatScheduler, subclassed as bench/fire-worker.ts does,
 * with a clock a test moves (the object's one clock, which every part reads) and a few RPCs that each run a step
 * of the object's own code a test could not reach otherwise. test/worker/entry.ts serves it under the class name
 * wrangler.toml binds; the Worker's own entry (src/index.ts) exports the product class, which has none of this.
 */
import { ChatScheduler } from "../../src/chat/ChatScheduler";

export class TestChatScheduler extends ChatScheduler {
  private clockOffsetMs = 0;
  private frozenAt: number | null = null;

  /** The machine's clock moved forward by the tests (`testAdvanceClock`), or stopped (`testFreezeClock`). */
  protected override now(): number {
    return this.frozenAt ?? Date.now() + this.clockOffsetMs;
  }

  /** Moves this object's clock forward by `ms`: the alarm and every part then see that time. Returns its now. */
  async testAdvanceClock(ms: number): Promise<number> {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.clockOffsetMs += ms;
    return this.now();
  }

  /**
   * Stops this object's clock at `at` (not before its now), so that a test can assert the exact instants a press
   * or a command computes from now; `testAdvanceClock` still moves it.
   */
  async testFreezeClock(at: number): Promise<number> {
    if (at < this.now()) throw new Error("the clock only moves forward");
    this.frozenAt = at;
    return at;
  }

  /**
   * The alarm's claims of every job due at this object's now, without their dispatch: what a crash between the
   * claim and the send leaves. Returns that now.
   */
  async testClaimDue(): Promise<number> {
    const now = this.now();
    this.parts.firing.claimDue(now);
    return now;
  }

  /** Step 1 of a move to supergroup `to` alone, the note `moving_to`, and the alarm armed for it: what a crash right after that step leaves. */
  async testNoteMove(to: string): Promise<void> {
    this.parts.moves.begin(to);
    await this.parts.alarms.sync();
  }

  /**
   * Forgets what the stores keep in memory: the object is its database's only writer, so a test that writes rows
   * behind its back (a migration test) has it read them again.
   */
  async testForget(): Promise<void> {
    this.parts.forget();
  }
}
