/**
 * @module Replies to the chat and the transcript read back (docs/agent.md, docs/design/0008-layout.md): `deliver`, an
 * agent's message under a key that is delivered once (the transcript entry, the prompt the agent saw and the
 * tools it called, and with a bot connected an outbox row, in one transaction), with what goes with a job's
 * message (its buttons, what a snooze copies, its silence) and the forum topic it goes to; and `messages`, the
 * last entries, oldest first.
 */
import type { ToolCallRecord } from "../contracts/turn";
import { copyOf } from "../jobs/snooze";
import { err, ok, type Result } from "../result";
import { deliverArgs } from "../schemas/agent";
import type { TranscriptEntry } from "../schemas/chats";
import { parseArgs } from "../sentence";
import { jobButtons, messageButtons } from "../telegram/buttons";
import { loadedTexts, type Texts } from "../texts";
import { type Deliveries, type Delivery, originOfKey } from "./deliveries";
import type { ChatInfo } from "./info";
import type { Nags } from "./nags";
import { parseMessage } from "./prompts";
import type { GateStore } from "./store/gate";
import type { JobStore, MessageFacts } from "./store/jobs";
import type { RunStore } from "./store/runs";
import type { TranscriptStore } from "./store/transcript";

export type ReplyDeps = {
  info: ChatInfo;
  runs: RunStore;
  jobs: JobStore;
  gateStore: GateStore;
  transcript: TranscriptStore;
  deliveries: Deliveries;
  /** A run's message of a job that nags until done starts nagging when it is delivered. */
  nags: Pick<Nags, "start">;
  now: () => number;
  transaction: <T>(work: () => T) => T;
};

/** `deliver`'s options over RPC: the prompt the agent saw, and the chat it binds an object that never saw one. */
export type DeliverOptions = { prompt?: string | null; chatId?: string };

export class Replies {
  constructor(private readonly d: ReplyDeps) {}

  /** `deliver` as an RPC hands it over: its arguments read first (docs/agent.md). */
  deliver(key: string, markdown: string, options: DeliverOptions): Result<{ delivered: boolean }> {
    const args = parseArgs(deliverArgs(), { key, markdown, prompt: options.prompt ?? null });
    if (!args.ok) return args;
    return this.write(key, markdown, options.prompt ?? null, options.chatId ?? null);
  }

  /**
   * Delivers a message to the chat (docs/design/0008-layout.md): the transcript entry (and the prompt the agent saw, when
   * given) and, with a bot connected, an outbox row, in one transaction. A key seen before is a no-op.
   * `chatId` binds an object that has never seen its chat (an agent of your own delivering first).
   */
  write(key: string, markdown: string, prompt: string | null, chatId: string | null, tools: readonly ToolCallRecord[] = []): Result<{ delivered: boolean }> {
    if (chatId !== null) {
      const bound = this.d.info.bind(chatId);
      if (!bound.ok) return bound;
    }
    const bound = this.d.info.chatId();
    if (bound !== null && !this.d.info.allowed(bound)) {
      return err("bad_request", `Chat ${bound} is not allowed to use this bot (ALLOWED_USER_IDS); nothing was delivered.`);
    }
    const now = this.d.now();
    // A run's reply comes from a watcher when its job is one (a match runs as a prompt); a prompt job's message
    // carries what a person does with it (docs/telegram.md#scheduled-messages-and-buttons): the run's key read, then the few columns needed.
    const jobId = this.d.runs.exists(key) ? originOfKey(key, null).jobId : null;
    const job = jobId === null ? null : this.d.jobs.messageFacts(jobId);
    const origin = originOfKey(key, job?.kind ?? null);
    const threadId = this.threadOf(key);
    const topic = threadId === undefined ? {} : { threadId };
    const delivered = this.d.transaction(() => {
      const t = loadedTexts(this.d.info.language());
      const message = jobMessage(job, key, t.buttons);
      // A reminder about a message brings it back first (docs/telegram.md#remind-me-about-this).
      const copy = job?.copyOf ? { messageId: job.copyOf.messageId, text: t.copy.entry(t.copy.kinds[job.copyOf.kind], job.copyOf.messageId) } : null;
      const written = this.d.deliveries.write(key, markdown, { origin, now, prompt, tools, ...message, ...topic, copy });
      if (written && job?.repeat && message.buttons && jobId !== null) this.d.nags.start(key, jobId, markdown, job.repeat, job.silent, now);
      return written;
    });
    this.d.deliveries.flush();
    return ok({ delivered });
  }

  /**
   * The forum topic a reply under `key` goes to: a user's message's own, while the gate's holder works on it
   * (the reply comes before the settle); undefined for anything else (a job's reply goes to the job's topic).
   */
  private threadOf(key: string): number | null | undefined {
    const held = this.d.gateStore.gate();
    if (held?.activeKey !== key || held.activeMessage === null) return undefined;
    const message = parseMessage(JSON.parse(held.activeMessage));
    return message?.source === "user" ? (message.threadId ?? null) : undefined;
  }

  /** The last `limit` transcript entries, oldest first (docs/agent.md). */
  messages(chatId: string, limit: number): Result<{ chatId: string; messages: TranscriptEntry[] }> {
    const bound = this.d.info.bind(chatId);
    if (!bound.ok) return bound;
    const n = Number.isInteger(limit) && limit >= 1 && limit <= 500 ? limit : 50;
    return ok({ chatId, messages: this.d.transcript.entries(n, (jobId) => jobButtons(jobId, loadedTexts(this.d.info.language()).buttons)) });
  }
}

/**
 * What goes with a job's message (docs/telegram.md): a prompt job's gets Done and the snoozes (a one-off's) or Done,
 * Snooze 1 h, Skip next and Pause (a recurring job's), and keeps what a snooze copies; a watcher's keeps the
 * job's Run now, Pause and Cancel; either is silent when its job is.
 */
function jobMessage(job: MessageFacts | null, runId: string, labels: Texts["buttons"]): Pick<Delivery, "buttons" | "jobCopy" | "silent"> {
  if (job === null) return {};
  if (job.kind === "watcher") return { silent: job.silent };
  const once = job.schedule.type === "hook" ? "hook" : job.schedule.type === "at";
  return { buttons: messageButtons(once, runId, labels), jobCopy: copyOf(job), silent: job.silent };
}
