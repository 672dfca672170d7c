/** @module The Worker's entry: the Hono app for every HTTP route, the queue consumers, the DO class export. */
import { app } from "./http/app";

export { ChatScheduler } from "./chat/ChatScheduler";

/**
 * Consumes `prompts` and `prompts-dlq`. The agent arrives with a later issue; until then every message is
 * acknowledged (nothing is retried, nothing is run) and the count is logged, so nothing piles up unseen.
 */
async function queue(batch: MessageBatch<unknown>, _env: Env, _ctx: ExecutionContext): Promise<void> {
  console.log(`queue ${batch.queue}: acknowledged ${batch.messages.length} message(s) without running an agent`);
  batch.ackAll();
}

export default {
  fetch: app.fetch,
  queue,
} satisfies ExportedHandler<Env>;
