/**
 * @module The runner's callback (`POST /runner/callback/:chatId`, docs/watchers.md): signed by the runner, no token; 204
 * for any run id. With the runner container, callbacks come through its outbound handler only (which also checks
 * the container's own chat), so the public route does not exist: a leaked secret could otherwise post outcomes
 * for any chat.
 */
import { Hono } from "hono";
import { acceptCallback } from "../runner-client/callback";
import type { AppEnv } from "./context";
import type { Operation } from "./openapi-components";

export const runnerCallback = new Hono<AppEnv>();

runnerCallback.post("/callback/:chatId", (c) =>
  c.var.config.runner.mode === "container" ? c.notFound() : acceptCallback(c.env, c.req.param("chatId"), c.req.raw),
);

/** What the OpenAPI document says of the callback: `openapi.ts` builds it, a test checks it against the app. */
export const runnerCallbackOperations = (): Operation[] => [
  {
    method: "post",
    path: "/runner/callback/{chatId}",
    summary: "The runner's callback: the outcome of a watcher's run, signed with RUNNER_SECRET (for the runner, not for people).",
    description:
      "No bearer token: the request is signed like every runner request (docs/watchers.md, see the runnerSignature scheme). " +
      "It answers 204 for any run id, also an unknown, settled or cancelled one, so the runner stops retrying; " +
      "only a run still waiting for the runner takes the outcome. A run id is `<chatId>:<jobId>:<dueAt epoch ms>`. " +
      "In container mode the runner calls back on an internal host instead, " +
      "which the Container class's outbound handler routes to the same checks and the chat's object, " +
      "so no public URL is needed, and this public route answers 404.",
    access: "runner",
    body: "RunnerOutcome",
    limit: "1 MiB",
    answers: [[204, "Received, whatever the run id."]],
    errors: {
      bad_request: "the outcome is another chat's (`The outcome is for chat 42, not 123456789.`)",
      unauthorized: "the signature is missing, wrong or more than 300 s off, or RUNNER_SECRET is unset; nothing changes",
      not_found: "the runner runs in the container (callbacks come only through its outbound handler)",
      config_error: "a runner var is invalid (the message names it)",
    },
  },
];
