/**
 * A fake OpenAI-compatible model server for the worker and e2e tiers (issue 13): `POST /v1/chat/completions`
 * records every request body and answers from a script per model name (each test uses its own `LLM_MODEL`):
 * plain text (at once, or after `delayMs`, as a model that takes its time), tool calls (one or several in one
 * message, with ids of the stub's or the script's own), an error (any status, with `Retry-After`), or a hang. With nothing scripted it answers the text
 * `(nothing scripted)`. `npm run bench` uses it too (bench/agent.mjs: a model that answers after 500 ms).
 * Control API (JSON), for tests in Node or in workerd:
 *   POST   /__stub/script { model, answers }   → queues answers for the next calls of that model, in order
 *   GET    /__stub/requests?model=             → { requests: body[] } oldest first
 * `npm run fake-model` serves it on 127.0.0.1:11435 for trying the model agent by hand (README).
 */
import { createServer, type Server } from "node:http";
import { listenOnLoopback, readBody, send } from "./http.ts";

export type ModelAnswer =
  | { kind: "text"; content: string; delayMs?: number }
  /** Tool calls, each with the next `call_<n>` id unless it names its own (a model may repeat one). */
  | { kind: "tools"; calls: { name: string; arguments: unknown; id?: string }[]; content?: string }
  | { kind: "error"; status: number; message?: string; retryAfter?: number }
  | { kind: "hang"; ms: number };

export type ModelStub = { url: string; close(): Promise<void> };

export async function startModelStub(port = 0): Promise<ModelStub> {
  const requests = new Map<string, unknown[]>();
  const scripts = new Map<string, ModelAnswer[]>();
  let nextCall = 1;

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const raw = await readBody(req);
      if (url.pathname === "/__stub/script" && req.method === "POST") {
        const { model, answers } = JSON.parse(raw) as { model: string; answers: ModelAnswer[] };
        scripts.set(model, [...(scripts.get(model) ?? []), ...answers]);
        return send(res, 200, { ok: true });
      }
      if (url.pathname === "/__stub/requests" && req.method === "GET") {
        return send(res, 200, { requests: requests.get(url.searchParams.get("model") ?? "") ?? [] });
      }
      if (url.pathname !== "/v1/chat/completions" || req.method !== "POST")
        return send(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
      const body = JSON.parse(raw) as { model?: string };
      const model = String(body.model ?? "");
      requests.set(model, [...(requests.get(model) ?? []), body]);
      const answer = scripts.get(model)?.shift() ?? { kind: "text", content: "(nothing scripted)" };
      switch (answer.kind) {
        case "hang":
          await new Promise((resolve) => setTimeout(resolve, answer.ms));
          if (res.closed || req.socket.destroyed) return;
          return send(res, 200, completion({ role: "assistant", content: "(too late)" }));
        case "error":
          if (answer.retryAfter !== undefined) res.setHeader("Retry-After", String(answer.retryAfter));
          return send(res, answer.status, { error: { message: answer.message ?? `error ${answer.status}`, type: "stub" } });
        case "text":
          if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
          return send(res, 200, completion({ role: "assistant", content: answer.content }));
        case "tools":
          return send(
            res,
            200,
            completion({
              role: "assistant",
              content: answer.content ?? null,
              tool_calls: answer.calls.map((c) => ({
                id: c.id ?? `call_${nextCall++}`,
                type: "function",
                function: { name: c.name, arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments) },
              })),
            }),
          );
      }
    } catch (error) {
      return send(res, 500, { error: { message: `stub error: ${String(error)}` } });
    }
  });
  return listenOnLoopback(server, port);
}

function completion(message: Record<string, unknown>) {
  return { id: "chatcmpl-stub", object: "chat.completion", created: 0, model: "stub", choices: [{ index: 0, message, finish_reason: "stop" }] };
}

// `npm run fake-model`: serve it until Ctrl-C, for trying the model agent under `npm run dev` by hand.
if (process.argv[1]?.endsWith("model-stub.ts") && import.meta.url.endsWith("/test/stub/model-stub.ts")) {
  const stub = await startModelStub(Number(process.env.FAKE_MODEL_PORT ?? 11435));
  console.log(`fake model listening on ${stub.url} (LLM_BASE_URL=${stub.url}/v1); script it with POST ${stub.url}/__stub/script`);
}
