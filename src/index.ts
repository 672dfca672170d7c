/** @module The Worker's entry: the Hono app for every HTTP route, the queue consumers, the DO class exports. */
import { consumeDeadLetters, consumePrompts } from "./agent/consumer";
import { app } from "./http/app";
import { receiveMail } from "./http/email";

export { ContainerProxy } from "@cloudflare/containers";
export { ChatScheduler } from "./chat/ChatScheduler";
// The runner's container per chat, and the entrypoint through which its outbound requests reach the Worker.
export { RunnerContainer } from "./runner-client/container";

/** Consumes `prompts` (the agent) and `prompts-dlq` (dead prompts settled `failed`), docs/agent.md. */
async function queue(batch: MessageBatch<unknown>, env: Env, _ctx: ExecutionContext): Promise<void> {
  if (batch.queue === "prompts-dlq") await consumeDeadLetters(batch, env);
  else await consumePrompts(batch, env);
}

/** Mail to a hook's address runs its job (docs/hooks.md#email). */
async function email(message: ForwardableEmailMessage, env: Env, _ctx: ExecutionContext): Promise<void> {
  await receiveMail(message, env);
}

export default {
  fetch: app.fetch,
  queue,
  email,
} satisfies ExportedHandler<Env>;
