/**
 * A fake runner for the worker tier (issue 6): a Node HTTP server on 127.0.0.1 that speaks the runner's side
 * of docs/watchers.md without running anything. It checks each request's signature with the test secret (with the
 * runner's own contract, runner/src/contract.ts: v2 over the method, `req.url` and the body), records
 * it, and answers `POST /runs` with 202 (or what a test scripted: 409, 429, 500, 401, a dry run's outcome, a
 * redirect that fetch rejects).
 * Workerd tests cannot be called back from Node, so a test plays the runner's callback itself.
 *
 * Control API (JSON):
 *   GET    /__stub/calls?chatId=   → { calls: RunnerCall[] }, oldest first
 *   DELETE /__stub/calls?chatId=   → clears them
 *   POST   /__stub/script { chatId, answers: [{ status, body? }] } → the next answers for that chat's calls
 * Test files share one stub: each uses its own chats and filters by chat id.
 */
import { createServer, type Server } from "node:http";
import { SIGNATURE_HEADER, verify } from "../../runner/src/contract.ts";
import { listenOnLoopback, readBody, send } from "./http.js";

/** The RUNNER_SECRET the worker tests configure. */
export const STUB_RUNNER_SECRET = "test-runner-secret-4f7a9c";

export type RunnerCall = {
  method: string;
  path: string;
  /** `POST /runs?wait=1`. */
  wait: boolean;
  body: Record<string, unknown> | null;
  chatId: string;
  signed: boolean;
};

/**
 * A scripted answer; `delayMs` holds it back (a slow acknowledgement, so a callback can overtake it); with
 * `headers`, it is sent with those headers and no body (a redirect the Worker's fetch cannot follow).
 */
export type StubAnswer = { status: number; body?: unknown; delayMs?: number; headers?: Record<string, string> };

async function signatureValid(header: string | undefined, method: string, target: string, body: string): Promise<boolean> {
  return (await verify(STUB_RUNNER_SECRET, header, { method, target, body }, Date.now() / 1000)).ok;
}

export type RunnerStub = { url: string; close(): Promise<void> };

export async function startRunnerStub(): Promise<RunnerStub> {
  const calls: RunnerCall[] = [];
  const scripts = new Map<string, StubAnswer[]>();

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const raw = await readBody(req);
      const chatFilter = url.searchParams.get("chatId");
      if (url.pathname === "/__stub/calls") {
        if (req.method === "GET") return send(res, 200, { calls: calls.filter((c) => !chatFilter || c.chatId === chatFilter) });
        for (let i = calls.length - 1; i >= 0; i--) if (!chatFilter || calls[i]!.chatId === chatFilter) calls.splice(i, 1);
        return send(res, 200, { ok: true });
      }
      if (url.pathname === "/__stub/script" && req.method === "POST") {
        const { chatId, answers } = JSON.parse(raw) as { chatId: string; answers: StubAnswer[] };
        scripts.set(chatId, [...(scripts.get(chatId) ?? []), ...answers]);
        return send(res, 200, { ok: true });
      }
      if (url.pathname === "/healthz") return send(res, 200, { ok: true, active: 0 });
      let body: Record<string, unknown> | null = null;
      try {
        body = raw === "" ? null : (JSON.parse(raw) as Record<string, unknown>);
      } catch {
        body = null;
      }
      const del = /^\/runs\/(.+)$/.exec(url.pathname);
      const runnerRunId = del ? decodeURIComponent(del[1]!) : String(body?.runId ?? "");
      const chatId = typeof body?.chatId === "string" ? body.chatId : runnerRunId.split(":")[0]!;
      const call: RunnerCall = {
        method: req.method ?? "",
        path: url.pathname,
        wait: url.searchParams.get("wait") === "1",
        body,
        chatId,
        signed: await signatureValid(req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined, req.method ?? "", req.url ?? "", raw),
      };
      calls.push(call);
      if (!call.signed) return send(res, 401, { error: { code: "unauthorized", message: "bad signature" } });
      const queued = scripts.get(chatId);
      const answer = queued?.shift();
      if (answer) {
        if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        if (answer.headers) {
          res.writeHead(answer.status, answer.headers).end();
          return;
        }
        return send(res, answer.status, answer.body ?? {});
      }
      if (req.method === "DELETE") return send(res, 204, null);
      if (req.method === "POST" && url.pathname === "/runs") {
        if (call.wait) return send(res, 500, { error: { code: "internal", message: "no dry-run outcome scripted" } });
        return send(res, 202, { runId: runnerRunId });
      }
      return send(res, 404, { error: { code: "not_found", message: "no such route" } });
    } catch (error) {
      return send(res, 500, { error: { code: "internal", message: String(error) } });
    }
  });

  return listenOnLoopback(server);
}
