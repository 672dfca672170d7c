/**
 * @module The runner's callback into the Worker (docs/watchers.md): `POST /runner/callback/:chatId` in URL mode, and
 * the container's outbound handler in container mode, both answered here. A signed outcome goes to the chat's
 * Durable Object; the answer is 204 for any run id (unknown, settled or cancelled ones too) so the runner
 * stops retrying; a bad signature is 401 and changes nothing. The signature (v2) covers the method, the
 * path as received (so one signed for chat A's path is worth nothing on chat B's) and the raw body.
 */
import { readLimited } from "../bytes";
import { errorsFor, loadConfig } from "../config";
import { badChatIdText } from "../contracts/ids";
import { CHAT_ID, MAX_CALLBACK_BYTES, runnerOutcome, SIGNATURE_HEADER, SIGNATURE_WINDOW_SECONDS, signingTarget, verify } from "../contracts/runner";

const UNAUTHORIZED =
  `The ${SIGNATURE_HEADER} header is missing, wrong or older than ${SIGNATURE_WINDOW_SECONDS} s; ` +
  'sign "<t>.<METHOD> <target>.<body>" as v2 with RUNNER_SECRET.';

function refuse(status: 400 | 401 | 413 | 500, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

/** Handles one callback for `chatId`: verify, parse, hand the outcome to the chat's object. */
export async function acceptCallback(env: Env, chatId: string, request: Request): Promise<Response> {
  if (request.method !== "POST") return refuse(400, "bad_request", "The runner callback takes POST with the run's outcome.");
  if (!CHAT_ID.test(chatId)) return refuse(400, "bad_request", badChatIdText(chatId));
  const declared = Number(request.headers.get("content-length") ?? "0");
  const bytes = declared > MAX_CALLBACK_BYTES ? null : await readLimited(request.body, MAX_CALLBACK_BYTES).catch(() => new Uint8Array(0));
  if (bytes === null) return refuse(413, "payload_too_large", "The body is larger than 1 MiB.");
  const loaded = loadConfig(env);
  const misconfigured = errorsFor(loaded, "watchers");
  if (misconfigured.length > 0) return refuse(500, "config_error", misconfigured.join(" "));
  const secret = loaded.config.runner.secret;
  const signed = { method: request.method, target: signingTarget(request.url), body: bytes };
  if (secret === null || !(await verify(secret, request.headers.get(SIGNATURE_HEADER), signed, Date.now() / 1000)).ok) {
    return refuse(401, "unauthorized", UNAUTHORIZED);
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return refuse(400, "bad_request", "The body is not valid JSON; send the run's outcome.");
  }
  const parsed = runnerOutcome().safeParse(json);
  if (!parsed.success)
    return refuse(
      400,
      "bad_request",
      "The body is not a run outcome: { runId, chatId, status, exitCode, timedOut, stdout, stderrTail, truncated, startedAt, finishedAt }.",
    );
  if (parsed.data.chatId !== chatId) return refuse(400, "bad_request", `The outcome is for chat ${parsed.data.chatId}, not ${chatId}.`);
  const stub = env.CHAT.get(env.CHAT.idFromName(chatId));
  const result = await stub.runnerOutcome(chatId, parsed.data);
  if (!result.ok) return refuse(400, "bad_request", result.error.message);
  return new Response(null, { status: 204 });
}
