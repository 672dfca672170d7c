/**
 * @module The `prompts` consumer (DESIGN §7): for each message, offer it to its chat's run gate; when the gate
 * answers, handle it and every follow-up the gate hands over, each delivered and settled in one call before the
 * queue message is acknowledged. Handling is idempotent by `key`. An echo turn is one call to the chat (the
 * answer goes in with the offer); a model turn two (the offer, which brings the conversation, then the answer,
 * which brings the next prompt). The `prompts-dlq` consumer settles a dead prompt `failed` with one sentence.
 */
import { loadConfig, type Config } from "../config";
import { promptMessageSchema, type PromptMessage } from "../contracts/prompt-message";
import type { NextPrompt, TurnAnswer, TurnContext } from "../contracts/turn";
import { backoffMs } from "../backoff";
import { dryRun } from "../runner-client/dry-run";
import { echoReply } from "./echo";
import { modelTurn } from "./llm";
import { ModelUnavailable } from "./model";
import { typing } from "./typing";

/** Queue retry delay after a transient error: 2 s, 4 s, 8 s … at most 5 minutes (jittered). */
const RETRY = { baseMs: 2_000, maxMs: 300_000 };

type Chat = DurableObjectStub<import("../chat/ChatScheduler").ChatScheduler>;

/** The echo agent's answer, known before the turn: the header is the chat object's, at handling time. */
function echoAnswer(message: PromptMessage): TurnAnswer {
  return { markdown: echoReply(message), promptBody: message.text, tools: [], status: "delivered", detail: null };
}

/** Runs the built-in model for one prompt, with Telegram showing "typing…" meanwhile. */
async function modelAnswer(env: Env, config: Config, chat: Chat, message: PromptMessage, context: TurnContext): Promise<TurnAnswer> {
  const stopTyping = context.budget === "ok" ? typing(config, message.chatId, message.threadId) : () => undefined;
  try {
    return await modelTurn(
      {
        config,
        now: Date.now,
        tools: { chatId: message.chatId, chat, dryRun: (zone, input) => dryRun(env, message.chatId, zone, input), now: Date.now },
      },
      message,
      context,
    );
  } finally {
    stopTyping();
  }
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
    const offer = await chat.gateOffer(message, model ? { model: true } : { answer: echoAnswer(message) });
    if (!offer.ok) {
      console.error(`prompts: ${message.key} refused: ${offer.error.message}`);
      queued.ack();
      return;
    }
    const first = offer.value;
    if (first.result === "duplicate" || first.result === "queued") {
      queued.ack(); // answered already, or stored for the gate's holder
      return;
    }
    token = first.token;
    let next: NextPrompt | null;
    if (first.result === "done") next = first.next;
    else {
      // The zone at handling time, which may have changed since the job fired.
      const current = { ...message, timeZone: first.timeZone ?? message.timeZone };
      next = { message: current, context: "context" in first ? (first.context ?? null) : null };
      next = await answer(env, config, chat, token, next, model);
    }
    while (next) next = await answer(env, config, chat, token, next, model);
    token = null;
    queued.ack();
  } catch (error) {
    console.error(`prompts: ${message.key} failed (attempt ${queued.attempts}); retrying`, error instanceof ModelUnavailable ? error.message : error);
    if (token !== null) await chat.gateRelease(token).catch(() => undefined);
    // The server's Retry-After is taken in whole seconds and at most our own longest wait (a queue delay is capped).
    const serverSaid = error instanceof ModelUnavailable && error.retryAfter !== null ? Math.min(Math.ceil(error.retryAfter), RETRY.maxMs / 1000) : 0;
    queued.retry({ delaySeconds: Math.max(serverSaid, Math.ceil(backoffMs(queued.attempts, RETRY) / 1000)) });
  }
}

/** Answers `current` (a model turn, or the echo) and hands the answer in; returns the next prompt or null. */
async function answer(env: Env, config: Config, chat: Chat, token: string, current: NextPrompt, model: boolean): Promise<NextPrompt | null> {
  const { message, context } = current;
  const reply = model && context ? await modelAnswer(env, config, chat, message, context) : echoAnswer(message);
  const finished = await chat.gateFinish(token, message.key, reply, model);
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
