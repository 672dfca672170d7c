/**
 * @module The model client (docs/agent.md `AGENT=llm`): one `fetch` to `${LLM_BASE_URL}/chat/completions` of any
 * OpenAI-compatible server (OpenAI, OpenRouter, Groq, Workers AI, Ollama, llama.cpp), with the tools as
 * functions, bounded by a time limit, its reply parsed with zod. No SDK in the bundle. Two kinds of failure:
 * the model is unavailable now (429, 5xx, network, time-out: try again later) or it refused the request (a
 * 4xx: wrong key, unknown model, bad request: trying again will not help). The key never appears in either.
 */
import * as z from "zod";
import { lazy } from "../lazy";

/** One message of the conversation, in the chat-completions form. */
export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

type ToolCall = { id: string; type: "function"; function: { name: string; arguments: string } };

/** A function the model may call: its name, description and JSON Schema. */
export type FunctionTool = { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown> } };

export type ModelEndpoint = { baseUrl: string; apiKey: string | null; model: string };

/** Try again later: 429, 5xx, a network error or a time-out. `retryAfter` in seconds, when the server said. */
export class ModelUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = "ModelUnavailable";
  }
}

/** The model refused the request (400, 401, 403, 404 …): `sentence` says what to fix, without the key. */
export class ModelRefused extends Error {
  constructor(
    readonly status: number,
    readonly sentence: string,
  ) {
    super(sentence);
    this.name = "ModelRefused";
  }
}

const completion = lazy(() =>
  z.object({
    choices: z
      .array(
        z.object({
          message: z.object({
            content: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  id: z.string().min(1),
                  function: z.object({
                    name: z.string().min(1),
                    // Some servers send the arguments as an object rather than its JSON text.
                    arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
                  }),
                }),
              )
              .nullish(),
          }),
        }),
      )
      .min(1),
  }),
);

export type Completion = { content: string | null; toolCalls: ToolCall[] };

/** What to fix, as one sentence for the chat, for a refusal with `status` (the server's own words, cut). */
function refusalSentence(status: number, endpoint: ModelEndpoint, said: string): string {
  if (status === 401 || status === 403) return `⚠️ The model refused the request (HTTP ${status}): check LLM_API_KEY.`;
  if (status === 404) return `⚠️ The model was not found (HTTP 404): check LLM_BASE_URL and LLM_MODEL (${JSON.stringify(endpoint.model.slice(0, 80))}).`;
  const detail = said.trim() === "" ? "" : `: ${said.trim().slice(0, 200)}`;
  return `⚠️ The model refused the request (HTTP ${status})${detail}.`.replace(/\.\.$/, ".");
}

/** The error text of an OpenAI-compatible error body (`{ error: { message } }` or `{ error: "…" }`), or ''. */
function errorText(body: string): string {
  try {
    const json = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof json.error === "string") return json.error;
    if (json.error && typeof json.error.message === "string") return json.error.message;
    if (typeof json.message === "string") return json.message;
  } catch {
    // not JSON
  }
  return "";
}

/** One chat completion with the tools; throws `ModelUnavailable` or `ModelRefused`. */
export async function complete(
  endpoint: ModelEndpoint,
  messages: readonly ChatMessage[],
  tools: readonly FunctionTool[],
  timeoutMs: number,
): Promise<Completion> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (endpoint.apiKey) headers.Authorization = `Bearer ${endpoint.apiKey}`;
  const body = JSON.stringify({ model: endpoint.model, messages, ...(tools.length > 0 ? { tools, tool_choice: "auto" } : {}) });
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${endpoint.baseUrl}/chat/completions`, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    const cause = timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : error instanceof Error ? error.message : "fetch failed";
    throw new ModelUnavailable(`the model did not answer: ${hide(cause, endpoint)}`);
  }
  if (response.status === 429 || response.status >= 500) {
    const retryAfter = Number(response.headers.get("retry-after"));
    throw new ModelUnavailable(
      `the model answered ${response.status}: ${hide(errorText(text), endpoint).slice(0, 200)}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
    );
  }
  if (!response.ok) throw new ModelRefused(response.status, refusalSentence(response.status, endpoint, hide(errorText(text), endpoint)));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelUnavailable("the model's answer is not JSON");
  }
  const parsed = completion().safeParse(json);
  if (!parsed.success) throw new ModelUnavailable(`the model's answer is not a chat completion: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const message = parsed.data.choices[0]!.message;
  const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call) => ({
    id: call.id,
    type: "function",
    function: {
      name: call.function.name,
      arguments: typeof call.function.arguments === "string" ? call.function.arguments : JSON.stringify(call.function.arguments ?? {}),
    },
  }));
  return { content: message.content ?? null, toolCalls };
}

/** A text with the key taken out, whatever a server echoed. */
function hide(text: string, endpoint: ModelEndpoint): string {
  return endpoint.apiKey && endpoint.apiKey.length >= 4 ? text.split(endpoint.apiKey).join("[REDACTED]") : text;
}
