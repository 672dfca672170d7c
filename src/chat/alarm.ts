/**
 * @module The chat's one alarm (docs/api.md#how-a-job-fires "One alarm, never lost"): armed at the soonest pending time (a due
 * job, an open run's lease or retry, the run gate's lease, the next outbox send), never polled. `run` is the
 * alarm itself: each part's work in its own try/catch, and in a `finally` the alarm re-armed whatever happened
 * (after an error, at most 30 s later). `sync` is the self-healing every RPC entry does.
 */
import type { ChatInfo } from "./info";
import type { GateStore } from "./store/gate";
import type { JobStore } from "./store/jobs";
import type { OutboxStore } from "./store/outbox";
import type { RunStore } from "./store/runs";
import type { UserPromptStore } from "./store/user-prompts";

/** After an error inside `alarm()`, try again this soon. */
export const ERROR_BACKOFF_MS = 30_000;

/** One part's share of the alarm: true when something failed and the alarm should come back soon. */
export type Tick = { name: string; run: (now: number) => Promise<boolean> };

export type AlarmDeps = {
  storage: DurableObjectStorage;
  jobs: JobStore;
  runs: RunStore;
  gate: GateStore;
  outbox: OutboxStore;
  userPrompts: UserPromptStore;
  info: ChatInfo;
  /** A failed D1 directory write to try again. */
  directory: { retryAt(): number | null };
  /** A move to a supergroup that did not finish, to try again. */
  move: { retryAt(): number | null };
  /** A hook's call that waited for its job's run in flight, which has ended. */
  hooks: { soonest(): number | null };
  /** The next daily agenda (docs/telegram.md#agenda). */
  agenda: { soonest(): number | null };
  /** The next copy of a message that nags (docs/telegram.md#nag-until-done). */
  nags: { soonest(): number | null };
  /**
   * How far the object's clock runs ahead of the machine's (CUCKOO_DEV_CLOCK_OFFSET in local dev, else 0): the
   * alarm is set at the machine's instant of the object's time.
   */
  ahead: () => number;
};

export class AlarmClock {
  constructor(private readonly d: AlarmDeps) {}

  /**
   * The soonest of: a due job, an open run's lease or retry, the run gate's lease, a user message's deadline, the
   * outbox's next send, a directory write or a move to try again, a hook's call that waited and can run.
   */
  soonest(): number | null {
    const move = this.d.move.retryAt();
    // While a move is unfinished, it is all the alarm does.
    if (move !== null) return move;
    const outbox = this.d.info.canSend() ? this.d.outbox.outboxDeadline() : null;
    const times = [
      this.d.jobs.soonest(),
      this.d.runs.soonest(),
      this.d.gate.gateDeadline(),
      this.d.userPrompts.soonest(),
      outbox,
      this.d.directory.retryAt(),
      this.d.hooks.soonest(),
      this.d.agenda.soonest(),
      this.d.nags.soonest(),
    ].filter((t): t is number => t !== null);
    return times.length ? Math.min(...times) : null;
  }

  /**
   * Self-healing: work pending and no alarm set (or set at another time) → arm it. Outside `alarm()` this
   * is the only place `setAlarm` is called, and only when the soonest time changed.
   */
  async sync(): Promise<void> {
    const soonest = this.soonest();
    const current = await this.d.storage.getAlarm();
    if (soonest === null) {
      if (current !== null) await this.d.storage.deleteAlarm();
      return;
    }
    const at = soonest - this.d.ahead();
    if (current !== at) await this.d.storage.setAlarm(at);
  }

  /** The alarm: every tick in order, each in its own try/catch; never throws, always re-arms. */
  async run(now: number, ticks: readonly Tick[]): Promise<void> {
    let failed = false;
    try {
      for (const tick of ticks) {
        try {
          failed = (await tick.run(now)) || failed;
        } catch (error) {
          failed = true;
          console.error(`alarm: ${tick.name} failed`, error);
        }
      }
    } finally {
      try {
        const soonest = this.soonest();
        const retry = failed ? now + ERROR_BACKOFF_MS : null;
        const next = soonest === null ? retry : retry === null ? soonest : Math.min(soonest, retry);
        if (next !== null) await this.d.storage.setAlarm(next - this.d.ahead());
      } catch (error) {
        console.error("alarm could not re-arm", error);
      }
    }
  }
}
