/**
 * @module Your own agent for Cuckoo (docs/agent.md), as a Worker: the consumer of Cuckoo's `prompts` queue in place of
 * the built-in one. For each prompt it offers the message to the chat's run gate; when the gate lets it run, it
 * answers the prompt (`answer`, the part to replace with your model), delivers the reply, settles it, and takes
 * the prompts that waited meanwhile (`next`) until there are none. It speaks the run gate and deliver HTTP API,
 * `POST /tools/:chatId/gate/offer|next|settle` and `POST /tools/:chatId/deliver` with `TOOLS_TOKEN`, over a
 * service binding to the Cuckoo Worker, and hands `answer` the chat's tools (Cuckoo's MCP tools), which carry
 * the run gate's token in `X-Cuckoo-Turn` while a job's or a watcher's prompt is handled. No dependencies.
 */

export interface Env {
  /** The Cuckoo Worker (a service binding; see wrangler.toml). */
  CUCKOO: Fetcher;
  /** Cuckoo's TOOLS_TOKEN (a secret). Unset only against `npm run dev`, whose tool routes are open. */
  TOOLS_TOKEN?: string;
}

/** The queue message, version 1 (docs/agent.md "The queue message"); the fields an agent usually reads. */
export type PromptMessage = {
  v: 1;
  /** The run id of a job, `u:<update_id>` or `m:<messageId>` for a user's message: deliver and settle take it. */
  key: string;
  chatId: string;
  /** The chat's IANA zone. */
  timeZone: string;
  source: "user" | "job" | "watcher";
  jobId?: string;
  jobName?: string;
  /** The full prompt: for a job, with its `[Scheduled job …]` header and the late note. */
  text: string;
  /** The job's own text, the watcher's output, or the user's message. */
  body: string;
  late?: boolean;
  firedAt: string;
};

/** What a tool answers (docs/agent.md "The tools"): `text` is what a model reads; `data` is for programs. */
export type ToolReply = { ok: boolean; text: string; data?: unknown };

/**
 * The chat's tools for the prompt in hand: `tools("schedule_list")`, `tools("memory_create", { title, body })`,
 * as Cuckoo's MCP server lists them (`tools/list` at `/mcp/<chatId>`). In a job's or a watcher's turn they
 * have only what such a turn may do (list, preview, memory, one follow-up one-off prompt): its prompt may
 * carry text no one wrote to the bot, such as a web page a watcher printed.
 */
export type Tools = (name: string, args?: Record<string, unknown>) => Promise<ToolReply>;

/**
 * The agent: the reply to one prompt, as Markdown. Replace this with a call to your model, giving it `tools`
 * (with a time limit: the run gate's lease is 10 minutes, renewed by every call to Cuckoo). A thrown error
 * retries the message.
 */
export async function answer(message: PromptMessage, _tools: Tools): Promise<string> {
  if (message.source === "user") return `You wrote: ${message.body}`;
  // A job's prompt, or a watcher's match: here, its own text.
  return message.body;
}

/** Cuckoo said no (4xx/5xx), or did not answer in time. */
export class CuckooError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "CuckooError";
  }
}

/** How long one call to Cuckoo may take: each is a few milliseconds of work in the chat's Durable Object. */
const CALL_TIMEOUT_MS = 10_000;

/** POSTs `body` to `path` of Cuckoo (`headers` added) and returns the answer, read as JSON (null for 204). */
async function post(env: Env, path: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const sent: Record<string, string> = { "Content-Type": "application/json", ...headers };
  if (env.TOOLS_TOKEN) sent.Authorization = `Bearer ${env.TOOLS_TOKEN}`;
  // The service binding reaches the Cuckoo Worker whatever the host says; localhost is the host `npm run dev`'s
  // open tool routes (no TOOLS_TOKEN) answer.
  const response = await env.CUCKOO.fetch(`http://localhost${path}`, {
    method: "POST",
    headers: sent,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
  });
  if (response.status === 204) return null;
  const text = await response.text();
  if (!response.ok) throw new CuckooError(response.status, `${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** POSTs `body` to `/tools/<chatId>/<path>` (the run gate and deliver). */
function call(env: Env, chatId: string, path: string, body: unknown): Promise<unknown> {
  return post(env, `/tools/${chatId}/${path}`, body);
}

/**
 * The chat's tools for `message`, over MCP. While this consumer holds the gate for a job's or a watcher's
 * prompt, each call carries the gate's token in `X-Cuckoo-Turn`, so Cuckoo gives it that turn's rights; a
 * user's prompt has every tool. A tool's refusal is a reply with `ok: false` and the sentence, for the model.
 */
function toolsFor(env: Env, message: PromptMessage, token: string): Tools {
  const turn: Record<string, string> = message.source === "user" ? {} : { "X-Cuckoo-Turn": token };
  const headers = { ...turn, Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25" };
  let id = 0;
  return async (name, args = {}) => {
    const rpc = { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name, arguments: args } };
    const answered = (await post(env, `/mcp/${message.chatId}`, rpc, headers)) as { result?: { structuredContent?: ToolReply }; error?: { message: string } };
    // Cuckoo's own errors (an unknown tool, a malformed call) are one sentence, which a model can act on too.
    return answered.result?.structuredContent ?? { ok: false, text: answered.error?.message ?? "The tool gave no answer." };
  };
}

/** True for the message shape this agent reads (anything else on the queue is not Cuckoo's and is dropped). */
function isPrompt(body: unknown): body is PromptMessage {
  const m = body as Partial<PromptMessage> | null;
  return typeof m === "object" && m !== null && m.v === 1 && typeof m.key === "string" && typeof m.chatId === "string" && typeof m.body === "string";
}

/**
 * One queue message: offered to its chat's run gate; `run` means this consumer holds the gate, so it answers,
 * delivers (once per key: a redelivered message is not answered twice) and settles each prompt, then asks for the
 * next one that waited, until `next` says none (which frees the gate). `queued` and `duplicate` need nothing:
 * the gate's holder takes a queued prompt, and a duplicate was answered before. `respond` is `answer` (a test
 * gives its own).
 */
export async function handle(env: Env, message: PromptMessage, respond: typeof answer = answer): Promise<void> {
  const offer = (await call(env, message.chatId, "gate/offer", message)) as { result: "run" | "queued" | "duplicate"; token?: string };
  if (offer.result !== "run" || !offer.token) return;
  const token = offer.token;
  let current: PromptMessage | null = message;
  while (current) {
    const markdown = await respond(current, toolsFor(env, current, token));
    await call(env, current.chatId, "deliver", { key: current.key, markdown });
    await call(env, current.chatId, "gate/settle", { token, key: current.key, status: "delivered" });
    current = ((await call(env, current.chatId, "gate/next", { token })) as { message: PromptMessage | null }).message;
  }
}

export default {
  /**
   * Messages of different chats are handled side by side; one chat's are serialised by its run gate. A message
   * that failed is retried by the queue (after the fourth attempt it goes to `prompts-dlq`, which Cuckoo's own
   * consumer settles with a sentence to the chat). If the gate was held when it failed, the gate's lease
   * (10 minutes) runs out and Cuckoo sends the prompt again.
   */
  async queue(batch: MessageBatch<unknown>, env: Env): Promise<void> {
    await Promise.all(
      batch.messages.map(async (queued) => {
        if (!isPrompt(queued.body)) {
          console.error("own-agent: dropped a message that is not a v1 prompt");
          queued.ack();
          return;
        }
        try {
          await handle(env, queued.body);
          queued.ack();
        } catch (error) {
          console.error(`own-agent: ${queued.body.key} failed (attempt ${queued.attempts}); retrying`, error instanceof Error ? error.message : error);
          queued.retry({ delaySeconds: Math.min(300, 2 ** queued.attempts) });
        }
      }),
    );
  },
} satisfies ExportedHandler<Env>;
