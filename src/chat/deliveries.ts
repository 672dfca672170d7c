/**
 * @module Writing a delivery (docs/design/0008-layout.md "Delivery"): every message the chat sees, an agent's reply, an alert or
 * a command's answer, becomes one transcript entry (after the prompt the agent saw and the tools it called,
 * when given) and, with a bot to send it, one outbox row, under a key
 * that is delivered once. Buttons given go with both (a job's message gets the job's buttons when it is sent); a
 * prompt job's message also keeps what its buttons need. Callers run `write` inside their own transaction.
 */
import { readRunId } from "../contracts/run-id";
import type { ToolCallRecord } from "../contracts/turn";
import { withoutTokens } from "../hooks/token";
import type { JobCopy } from "../jobs/snooze";
import type { ButtonRows, Source } from "../schemas/chats";
import type { ChatInfo } from "./info";
import type { OutboxStore } from "./store/outbox";
import type { NewEntry, TranscriptStore } from "./store/transcript";

/** Where a delivered message came from: its transcript source and, for a job's run, the job and run. */
export type Origin = { source: Source; jobId: string | null; runId: string | null };

/**
 * Where a key came from: a job run (also when the run is gone, as after a cancel mid-turn: the key says so),
 * a Telegram update (`u:`) or an admin-API message (`m:`). `kind` is the run's job kind, when it still exists.
 */
export function originOfKey(key: string, kind: "prompt" | "watcher" | null): Origin {
  const run = readRunId(key);
  if (run) return { source: kind === "watcher" ? "watcher" : "job", jobId: run.jobId, runId: key };
  if (key.startsWith("u:")) return { source: "telegram", jobId: null, runId: null };
  return { source: "admin", jobId: null, runId: null };
}

/** A tool entry's text: `schedule_create {"name":…}` and, on the next line, `→ ok: <what the tool answered>`. */
function toolEntryText(call: ToolCallRecord): string {
  // A hook's address a tool showed is kept as `[shown once]` (docs/hooks.md).
  return withoutTokens(`${call.name} ${call.args}\n→ ${call.ok ? "ok" : "not ok"}: ${call.text}`);
}

/**
 * A delivery's circumstances: where it came from, when, and what goes with it in the transcript: the prompt the
 * agent saw, the tools it called, and the buttons under the message; for a job's message, what a snooze copies
 * of the job (`jobCopy`) and whether the job is silent (sent without a notification sound); and the forum topic
 * it goes to (a reply goes where its message came from; left out, a job's message goes to the job's topic).
 */
export type Delivery = {
  origin: Origin;
  now: number;
  prompt?: string | null;
  tools?: readonly ToolCallRecord[];
  buttons?: ButtonRows | null;
  jobCopy?: JobCopy | null;
  silent?: boolean;
  threadId?: number | null;
  /** It shows a hook's URL (docs/hooks.md): sent as it is, kept in the transcript with `[shown once]` for the token. */
  secret?: boolean;
  /**
   * A message of the chat brought back first (docs/telegram.md#remind-me-about-this): copied by Telegram's
   * `copyMessage`, and kept in the transcript as `text`, its reference.
   */
  copy?: { messageId: number; text: string } | null;
};

export class Deliveries {
  constructor(
    private readonly transcript: TranscriptStore,
    private readonly outbox: OutboxStore,
    private readonly info: ChatInfo,
    /** A job's forum topic (null: the main thread, or no such job). */
    private readonly threadOf: (jobId: string) => number | null,
  ) {}

  /** Whether `key` was delivered before. */
  delivered(key: string): boolean {
    return this.transcript.delivered(key);
  }

  /**
   * Writes a delivery: the `prompt` entry (what the agent saw) when given, the tool entries, the bot entry (with
   * its buttons), the delivered key and, when a bot can send it, the outbox row. False when the key was
   * delivered before (nothing written).
   */
  write(key: string, markdown: string, delivery: Delivery): boolean {
    const { origin, now, prompt = null, tools = [], buttons = null, jobCopy = null, silent = false } = delivery;
    if (this.transcript.delivered(key)) return false;
    this.transcript.markDelivered(key, now);
    const meta: Omit<NewEntry, "role" | "text"> = { source: origin.source, jobId: origin.jobId, runId: origin.runId };
    if (prompt) this.transcript.append({ ...meta, role: "prompt", text: prompt }, now);
    // What the agent called on the way, for the owner to see (admin API only, never sent to Telegram).
    for (const call of tools) this.transcript.append({ ...meta, role: "tool", text: toolEntryText(call) }, now);
    const kept = delivery.secret ? withoutTokens(markdown) : markdown;
    if (delivery.copy) this.transcript.append({ ...meta, role: "bot", text: delivery.copy.text }, now);
    const entryId = this.transcript.append({ ...meta, role: "bot", text: kept, buttons, jobCopy }, now);
    // With no bot to send it (transcript mode, a blocked chat), the transcript entry is the delivery.
    if (this.info.canSend()) {
      const threadId = delivery.threadId !== undefined ? delivery.threadId : origin.jobId !== null ? this.threadOf(origin.jobId) : null;
      // The message brought back goes first, then the reminder under it.
      if (delivery.copy)
        this.outbox.enqueueOutbox(
          { key: `copy:${key}`, markdown: "", jobId: origin.jobId, runId: origin.runId, silent, threadId, copyOf: delivery.copy.messageId },
          now,
        );
      // A job's message records the ids Telegram gives its parts on its entry: a reply to one of them names the job.
      const row = {
        key,
        markdown,
        jobId: origin.jobId,
        runId: origin.runId,
        buttons: buttons ? JSON.stringify(buttons) : null,
        entryId: origin.jobId === null ? null : entryId,
        silent,
        threadId,
      };
      this.outbox.enqueueOutbox(row, now);
    }
    return true;
  }

  /**
   * Drops rows that cannot be sent: in transcript mode the transcript entry is the delivery; a blocked chat
   * costs nothing until the user writes again; a chat with no bound id or no usable token could only loop.
   */
  flush(): void {
    if (!this.info.canSend()) this.outbox.clearOutbox();
  }
}
