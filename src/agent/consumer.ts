/**
 * @module The `prompts` consumer (docs/agent.md): for each message, offer it to its chat's run gate; when the gate
 * answers, handle it and every follow-up the gate hands over, each delivered and settled in one call before the
 * queue message is acknowledged. Handling is idempotent by `key`. An echo turn is one call to the chat (the
 * answer goes in with the offer); a model turn two (the offer, which brings the conversation, then the answer,
 * which brings the next prompt), and two more for each step that calls tools (its record,
 * docs/agent.md#the-model-agent-agentllm). A try that fails for a reason that may pass is handed to the chat's
 * object, which schedules the next one (the one retry mechanism of a turn): the queue's own retry only covers a
 * call to the chat that failed.
 * The `prompts-dlq` consumer settles a dead prompt `failed` with one sentence.
 */

import { backoffMs } from "../backoff";
import { type Config, loadConfig } from "../config";
import { type PromptMessage, promptMessageSchema } from "../contracts/prompt-message";
import type { NextPrompt, TurnAnswer, TurnContext, TurnFailure } from "../contracts/turn";
import { dryRun } from "../runner-client/dry-run";
import { echoReply } from "./echo";
import { GateLost, modelTurn } from "./llm";
import { ModelUnavailable } from "./model";
import { typing } from "./typing";

/** Queue retry delay after a call to the chat failed: 2 s, 4 s, 8 s … at most 5 minutes (jittered). */
const RETRY = { baseMs: 2_000, maxMs: 300_000 };

type Chat = DurableObjectStub<import("../chat/ChatScheduler").ChatScheduler>;

/** The echo agent's answer, known before the turn: the header is the chat object's, at handling time. */
async function echoAnswer(message: PromptMessage): Promise<TurnAnswer> {
  return { markdown: await echoReply(message), promptBody: message.text, status: "delivered", detail: null };
}

/** A consumer's hold on a chat's run gate (`token`), and what each of its turns needs: the env, the config, the chat, the agent. */
type Hold = { env: Env; config: Config; chat: Chat; token: string; model: boolean };

/** Runs the built-in model for one prompt, with Telegram showing "typing…" meanwhile. */
async function modelAnswer(hold: Hold, message: PromptMessage, context: TurnContext): Promise<TurnAnswer> {
  const { env, config, chat, token } = hold;
  const stopTyping = context.budget === "ok" ? typing(config, message.chatId, message.threadId) : async () => undefined;
  try {
    return await modelTurn(
      {
        config,
        now: Date.now,
        ai: env.AI,
        tools: {
          chatId: message.chatId,
          chat,
          dryRun: (zone, input) => dryRun(env, message.chatId, zone, input),
          now: Date.now,
          // No request to take an origin from: a hook the model makes is on PUBLIC_URL (the model reads `[shown once]`).
          hooks: { base: config.runner.publicUrl ?? "", emailDomain: config.emailDomain },
        },
        record: async (record) => {
          const recorded = await chat.gateStep(token, message.key, record);
          if (!recorded.ok) throw new GateLost(recorded.error.message);
        },
      },
      context,
    );
  } finally {
    await stopTyping();
  }
}

/** What a failed try hands the chat's object: the sentence of the failure (never the key) and the Retry-After. */
function failureOf(error: unknown): TurnFailure {
  // Any Retry-After past a day is a day here: the chat takes at most 15 minutes of it anyway.
  if (error instanceof ModelUnavailable)
    return { detail: error.message.slice(0, 500), retryAfter: error.retryAfter === null ? null : Math.min(error.retryAfter, 86_400) };
  return { detail: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : String(error).slice(0, 500), retryAfter: null };
}

async function consumeOne(env: Env, queued: Message<unknown>): Promise<void> {
  const parsed = promptMessageSchema().safeParse(queued.body);
  if (!parsed.success) {
    console.error(`prompts: dropped a message that is not a v1 prompt: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    queued.ack();
    return;
  }
  const message = parsed.data;
  const config = loadConfig(env).config;
  const model = config.agent.kind === "llm";
  const chat: Chat = env.CHAT.getByName(message.chatId);
  let token: string | null = null;
  try {
    // A message the queue delivers again was not finished by the consumer it went to: its turn is taken over.
    const redelivered = queued.attempts > 1;
    const offer = await chat.gateOffer(message, model ? { model: true, redelivered } : { answer: await echoAnswer(message), redelivered });
    if (!offer.ok) {
      console.error(`prompts: ${message.key} refused: ${offer.error.message}`);
      queued.ack();
      return;
    }
    const first = offer.value;
    if (first.result === "duplicate" || first.result === "queued") {
      queued.ack(); // answered already, waiting for its next try, or stored for the gate's holder
      return;
    }
    token = first.token;
    const hold: Hold = { env, config, chat, token, model };
    let next: NextPrompt | null;
    if (first.result === "done") next = first.next;
    else {
      // The zone at handling time, which may have changed since the job fired.
      const current = { ...message, timeZone: first.timeZone ?? message.timeZone };
      next = await answer(hold, { message: current, context: "context" in first ? (first.context ?? null) : null });
    }
    while (next) next = await answer(hold, next);
    queued.ack();
  } catch (error) {
    console.error(`prompts: ${message.key} failed (attempt ${queued.attempts}); retrying`, error);
    // A call to the chat failed. An echo turn costs nothing to repeat: the gate goes back at once, its prompt
    // first in line. A model turn has one retry mechanism, the chat's: its gate comes free when its lease
    // runs out, and that try counts.
    if (token !== null && !model) await chat.gateRelease(token).catch(() => undefined);
    queued.retry({ delaySeconds: Math.ceil(backoffMs(queued.attempts, RETRY) / 1000) });
  }
}

/**
 * Answers `current` (a model turn, or the echo) and hands the answer in; returns the next prompt or null. A
 * model turn whose try failed is handed back instead: the chat's object schedules its next try (null: the gate
 * stays with it) or, after the last, tells the chat and hands over the next prompt.
 */
async function answer(hold: Hold, current: NextPrompt): Promise<NextPrompt | null> {
  const { message, context } = current;
  if (!hold.model || !context) return finish(hold, message.key, await echoAnswer(message));
  let reply: TurnAnswer;
  try {
    reply = await modelAnswer(hold, message, context);
  } catch (error) {
    if (error instanceof GateLost) {
      console.error(`prompts: ${message.key} stopped: ${error.message}`);
      return null;
    }
    const failure = failureOf(error);
    const retried = await hold.chat.gateRetry(hold.token, message.key, failure);
    if (!retried.ok && retried.error.code === "conflict") {
      console.error(`prompts: ${message.key} stopped: ${retried.error.message}`);
      return null; // another consumer has the turn now
    }
    if (!retried.ok) throw new Error(`the chat did not take the failed try: ${retried.error.message}`);
    const { retryAt, next } = retried.value;
    const tries = context.tries + 1;
    console.error(
      retryAt === null
        ? `prompts: ${message.key} failed ${tries} times (${failure.detail}); the chat was told`
        : `prompts: ${message.key} try ${tries} failed (${failure.detail}); the next at ${new Date(retryAt).toISOString()}`,
    );
    return next;
  }
  return finish(hold, message.key, reply);
}

/** Hands a turn's answer in; an answer the chat refuses (a bug: the agent keeps within its bounds) fails the run. */
async function finish(hold: Hold, key: string, reply: TurnAnswer): Promise<NextPrompt | null> {
  const { chat, token, model } = hold;
  let finished = await chat.gateFinish(token, key, reply, model);
  if (!finished.ok && finished.error.code === "bad_request") {
    // Never a reason to try the turn again: it would be refused the same way.
    console.error(`prompts: ${key}: the chat refused the answer (${finished.error.message}); the run fails`);
    finished = await chat.gateFinish(
      token,
      key,
      { markdown: null, status: "failed", detail: `the answer could not be kept: ${finished.error.message}`.slice(0, 2000) },
      model,
    );
  }
  if (!finished.ok) throw new Error(`finish refused: ${finished.error.message}`);
  return finished.value.next;
}

/** `prompts`: messages of different chats run side by side; one chat's are serialised by its run gate. */
export async function consumePrompts(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(batch.messages.map((m) => consumeOne(env, m)));
}

/** `prompts-dlq`: each dead prompt is settled `failed` and the chat gets one sentence. */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (queued) => {
      const parsed = promptMessageSchema().safeParse(queued.body);
      if (!parsed.success) {
        queued.ack();
        return;
      }
      try {
        const result = await env.CHAT.getByName(parsed.data.chatId).deadLetter(parsed.data);
        if (!result.ok) console.error(`prompts-dlq: ${parsed.data.key} refused: ${result.error.message}`);
        queued.ack();
      } catch (error) {
        console.error(`prompts-dlq: ${parsed.data.key} failed; retrying`, error);
        queued.retry({ delaySeconds: 30 });
      }
    }),
  );
}
