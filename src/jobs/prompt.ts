/**
 * @module A prompt run's queue message (docs/agent.md): the job's text under its header, the late line when it fired
 * late, and the memory records it refers to, cut until the message fits the queue's limit.
 */
import type { PromptMessage } from "../contracts/prompt-message";
import type { Lang } from "../words";
import { MEMORY_PROMPT_CHARS, type MemoryContent, memorySection } from "./memory";
import type { JobRecord } from "./records";
import { promptText } from "./texts";
import { MAX_PROMPT_MESSAGE_BYTES } from "./watcher";

/**
 * `defaultTimeout`: a watcher's timeout in seconds when the job sets none (DEFAULT_SCRIPT_TIMEOUT). `speedup`: what
 * a run's lease is divided by (`leaseMs` of config.ts; 1, the default, but in a local test's CUCKOO_DEV_SPEEDUP).
 * `language`: the chat's, which a job's message carries (what an agent without a model says is in it).
 */
export type FireContext = { chatId: string; zone: string; now: number; deliverable: boolean; defaultTimeout: number; speedup?: number; language?: Lang };

/**
 * The v1 queue message of a prompt run (docs/agent.md): text with header and late note, then the memory records
 * the job refers to. Their content is cut until the message serializes within the queue's limit.
 */
export function promptMessage(
  job: JobRecord,
  runId: string,
  dueAt: number,
  ctx: FireContext,
  late: boolean,
  memory: readonly MemoryContent[] = [],
  last = false,
  count = 0,
): PromptMessage {
  const body = job.text ?? "";
  const head = promptText({ id: job.id, name: job.name, text: body }, late ? { dueAt, zone: ctx.zone, now: ctx.now, count } : null, last);
  const build = (budget: number): PromptMessage => {
    const section = memorySection(memory, budget);
    return {
      v: 1,
      key: runId,
      chatId: ctx.chatId,
      timeZone: ctx.zone,
      source: "job",
      jobId: job.id,
      jobName: job.name,
      runId,
      text: section === "" ? head : `${head}\n\n${section}`,
      body,
      ...(late ? { late: true } : {}),
      ...(late && count > 1 ? { missed: count } : {}),
      firedAt: new Date(ctx.now).toISOString(),
      dueAt: new Date(dueAt).toISOString(),
      ...(ctx.language && ctx.language !== "en" ? { language: ctx.language } : {}),
      // Its topic: a follow-up it makes goes there too.
      ...(job.threadId !== null ? { threadId: job.threadId } : {}),
    };
  };
  // Control characters take six bytes each in JSON and a character up to three in UTF-8: halve until it fits.
  for (let budget = MEMORY_PROMPT_CHARS; ; budget = Math.floor(budget / 2)) {
    const message = build(budget);
    if (memory.length === 0 || budget < 64 || new TextEncoder().encode(JSON.stringify(message)).length <= MAX_PROMPT_MESSAGE_BYTES) return message;
  }
}
