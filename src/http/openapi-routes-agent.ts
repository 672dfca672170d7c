/**
 * @module The OpenAPI rows of the routes agents and remotes call (DESIGN §7–§10): the scheduling tools, the
 * run gate and deliver, the Telegram webhook and the runner's callback.
 */
import { SCHEDULE_GUIDELINES } from "../schemas/tools";
import type { Operation } from "./openapi-components";

/** The rows for `/tools/*`, `/telegram/webhook` and `/runner/callback/*`, in the order a reader meets them. */
export function agentOperations(): Operation[] {
  return [
    {
      method: "post",
      path: "/tools/{chatId}/schedule",
      summary: "The scheduling tool for agents (bearer TOOLS_TOKEN). Every input problem is 200 with ok false and a sentence.",
      description: SCHEDULE_GUIDELINES,
      access: "tools",
      body: "ScheduleRequest",
      answersInput: true,
      answers: [[200, "What the model reads (`text`) and, on success, `data`.", "ToolReply"]],
    },
    {
      method: "post",
      path: "/tools/{chatId}/set_timezone",
      summary: "Set the chat's zone for agents (bearer TOOLS_TOKEN); the text is the reply of DESIGN §4.",
      access: "tools",
      body: "SetTimezoneRequest",
      answersInput: true,
      answers: [[200, "`{ ok, text }`; ok false with a sentence for an unknown zone or a wrong body.", "ToolReply"]],
    },
    {
      method: "post",
      path: "/tools/{chatId}/gate/offer",
      summary: "Offer a prompt (the queue message itself) to the chat's run gate.",
      access: "tools",
      body: "PromptMessage",
      answers: [[200, "`duplicate`, `queued`, or `run` with the token that holds the gate.", "GateOffer"]],
      errors: { bad_request: 'a message whose "chatId" is not the path\'s, or a body that is not a v1 prompt message' },
    },
    {
      method: "post",
      path: "/tools/{chatId}/gate/next",
      summary: "The holder's next prompt; null releases the gate.",
      access: "tools",
      body: "GateNextRequest",
      answers: [[200, "The next prompt or null.", "GateNext"]],
    },
    {
      method: "post",
      path: "/tools/{chatId}/gate/settle",
      summary: "The holder is done with a prompt; a job's key settles its run.",
      access: "tools",
      body: "GateSettleRequest",
      answers: [[204, "Settled."]],
      errors: { conflict: "the token no longer holds the gate and the job's reply was not delivered" },
    },
    {
      method: "post",
      path: "/tools/{chatId}/deliver",
      summary: "Deliver a reply to the chat; a key seen before is a no-op.",
      access: "tools",
      body: "DeliverRequest",
      answers: [[200, "Whether this call delivered it.", "DeliverReply"]],
      errors: { bad_request: "a chat the bot may not serve (ALLOWED_USER_IDS); nothing is delivered" },
    },
    {
      method: "post",
      path: "/telegram/webhook",
      summary: "Telegram's webhook (for Telegram, not for people): the update goes to the chat's object.",
      description:
        "Only private chats of users in ALLOWED_USER_IDS are served; every other update, and one that cannot be read, is acknowledged and leaves no state. Replies go through the Bot API, never in this answer. Telegram sends more fields than the schema lists; they are ignored.",
      access: "telegram",
      body: "TelegramUpdate",
      answersInput: true,
      answers: [[200, "Acknowledged, whatever the update held.", "WebhookAck"]],
    },
    {
      method: "post",
      path: "/runner/callback/{chatId}",
      summary: "The runner's callback: the outcome of a watcher's run, signed with RUNNER_SECRET (for the runner, not for people).",
      description:
        "No bearer token: the request is signed like every runner request (DESIGN §8, see the runnerSignature scheme). It answers 204 for any run id, also an unknown, settled or cancelled one, so the runner stops retrying; only a run still waiting for the runner takes the outcome. A run id is `<chatId>:<jobId>:<dueAt epoch ms>`. In container mode the runner calls back on an internal host instead, which the Container class's outbound handler routes to the same checks and the chat's object, so no public URL is needed, and this public route answers 404.",
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
}
