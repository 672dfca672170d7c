/**
 * @module A model turn's context (docs/agent.md): what the built-in agent's model starts from when the run gate
 * hands it a prompt. The conversation before the prompt, the day's budget of model turns (counted here, in the
 * chat's local day, once per turn), for a job's prompt how many follow-ups it may create, and the prompt and
 * the steps its earlier tries reached.
 */
import type { Config } from "../config";
import type { PromptMessage } from "../contracts/prompt-message";
import type { TurnContext } from "../contracts/turn";
import { turnModel } from "../jobs/model";
import { followUpsOf } from "../jobs/records";
import { loadedTexts } from "../texts";
import { formatHeader, formatLocalDay } from "../time";
import { originOfKey } from "./deliveries";
import type { ChatInfo } from "./info";
import type { ModelTurns } from "./model-turns";
import type { TurnState } from "./store/gate";
import type { JobStore } from "./store/jobs";
import type { TranscriptStore } from "./store/transcript";
import type { UsageStore } from "./store/usage";

/** The conversation a model turn starts from: at most this many earlier messages and characters (docs/agent.md). */
export const HISTORY_MAX_ENTRIES = 30;
export const HISTORY_MAX_CHARS = 8_000;

export type TurnContextDeps = {
  transcript: TranscriptStore;
  jobs: JobStore;
  usage: UsageStore;
  /** The steps a turn recorded in its earlier tries. */
  turns: Pick<ModelTurns, "steps">;
  info: ChatInfo;
  config: () => Config;
};

/** A turn as the run gate holds it (`resumed`: an earlier try of it ran, so it was counted and may have steps). */
export type HeldTurn = TurnState & { resumed: boolean };

export class TurnContexts {
  constructor(private readonly d: TurnContextDeps) {}

  /**
   * The context of `message`'s turn at `now` (docs/agent.md): a turn tried before was counted then, and resumes
   * with the prompt and steps it had.
   */
  of(message: PromptMessage, now: number, turn: HeldTurn | undefined): TurnContext {
    const zone = this.d.info.zone().zone;
    const before = Date.parse(message.firedAt);
    const history = this.d.transcript
      .conversation(Number.isFinite(before) ? before : now, HISTORY_MAX_ENTRIES, HISTORY_MAX_CHARS)
      .map((e) => ({ role: e.role === "bot" ? ("assistant" as const) : ("user" as const), text: e.text }));
    let followUps: number | null = null;
    let jobModel: string | null = null;
    if (message.source !== "user") {
      // The job's id is in the run's key; the run itself (open, as the offer checked) need not be read.
      const jobId = originOfKey(message.key, null).jobId;
      const job = jobId === null ? null : this.d.jobs.get(jobId);
      followUps = followUpsOf(job);
      jobModel = job?.model ?? null;
    }
    const chosen = turnModel(jobModel, this.d.info.model(), this.d.config().agent.models);
    const language = this.d.info.language();
    const resumed = turn?.resumed === true;
    return {
      timeZone: zone,
      language,
      history,
      budget: resumed ? "ok" : this.countTurn(zone, now),
      followUps,
      prompt: turn?.prompt ?? `${formatHeader(now, zone)}\n${message.text}`,
      steps: resumed ? this.d.turns.steps(message.key) : [],
      tries: turn?.tries ?? 0,
      ...(message.source === "user" && message.userId !== undefined ? { member: message.userId } : {}),
      ...(message.threadId !== undefined ? { threadId: message.threadId } : {}),
      ...(chosen.model !== null ? { model: chosen.model } : {}),
      ...(chosen.model !== null && chosen.dropped !== null ? { modelNote: loadedTexts(language).model.dropped(chosen.dropped, chosen.model) } : {}),
    };
  }

  /** Counts a model turn against `LLM_MAX_TURNS_PER_DAY`; past it, the day's one notice, then nothing. */
  private countTurn(zone: string, now: number): TurnContext["budget"] {
    const day = formatLocalDay(now, zone);
    const max = this.d.config().agent.maxTurnsPerDay;
    const used = this.d.usage.get(day, "model_turns");
    if (used.n < max) {
      this.d.usage.increment(day, "model_turns");
      return "ok";
    }
    if (used.noticed) return "over";
    this.d.usage.markNoticed(day, "model_turns");
    return "notice";
  }
}
