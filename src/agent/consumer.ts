/**
 * @module The `prompts` consumer (DESIGN §7): for each message, offer it to its chat's run gate; when the gate
 * answers `run`, handle it and every follow-up the gate hands over, each delivered before it is settled and
 * before the queue message is acknowledged. Handling is idempotent by `key`. The `prompts-dlq` consumer
 * settles a dead prompt `failed` with one sentence to the chat.
 */
import { formatHeader } from "../time";
import { echoReply } from "./echo";
import { promptMessageSchema, type PromptMessage } from "../contracts/prompt-message";

/** Queue retry delay after a transient error: 2 s, 4 s, 8 s … at most 5 minutes. */
function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 2 ** Math.max(1, attempts));
}

/** The prompt the agent sees: the local-time header of the chat's zone at handling time, then the text. */
export function agentInput(message: PromptMessage, now: number): string {
  return `${formatHeader(now, message.timeZone)}\n${message.text}`;
}

type Chat = DurableObjectStub<import("../chat/ChatScheduler").ChatScheduler>;

/** Runs the agent for one prompt and delivers its reply (a key delivered before is a no-op in the DO). */
async function handle(chat: Chat, message: PromptMessage): Promise<void> {
  const seen = agentInput(message, Date.now());
  const reply = echoReply(message);
  const delivered = await chat.deliver(message.key, reply, { prompt: seen, chatId: message.chatId });
  if (!delivered.ok) throw new Error(`deliver refused: ${delivered.error.message}`);
}

async function consumeOne(env: Env, queued: Message<unknown>): Promise<void> {
  const parsed = promptMessageSchema().safeParse(queued.body);
  if (!parsed.success) {
    console.error(`prompts: dropped a message that is not a v1 prompt: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    queued.ack();
    return;
  }
  const message = parsed.data;
  const chat: Chat = env.CHAT.getByName(message.chatId);
  let token: string | null = null;
  try {
    const offer = await chat.gateOffer(message);
    if (!offer.ok) {
      console.error(`prompts: ${message.key} refused: ${offer.error.message}`);
      queued.ack();
      return;
    }
    if (offer.value.result !== "run") {
      queued.ack(); // duplicate, or stored for the gate's holder
      return;
    }
    token = offer.value.token;
    // The header shows the chat's zone at handling time, which may have changed since the job fired.
    let current: PromptMessage | null = { ...message, timeZone: offer.value.timeZone ?? message.timeZone };
    while (current) {
      await handle(chat, current);
      const settled = await chat.gateSettle(token, current.key, "delivered");
      if (!settled.ok) throw new Error(`settle refused: ${settled.error.message}`);
      const next = await chat.gateNext(token);
      current = next.ok ? next.value.message : null;
    }
    token = null;
    queued.ack();
  } catch (error) {
    console.error(`prompts: ${message.key} failed (attempt ${queued.attempts}); retrying`, error);
    if (token !== null) await chat.gateRelease(token).catch(() => undefined);
    queued.retry({ delaySeconds: retryDelaySeconds(queued.attempts) });
  }
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
