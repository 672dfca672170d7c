/**
 * @module The OpenAPI paths and schemas of the conversation routes (DESIGN §7, §10): the transcript and user
 * messages under /admin, and the run gate and deliver under /tools for an agent of your own.
 */
import { chatIdParam, error, json, ref, type Responses } from "./openapi-jobs";

const bad = error("bad_request", "a bad chat id, malformed JSON, a wrong type or an unknown field.");
const tooLarge = error("payload_too_large", "the body is over 64 KiB.");
const post = (summary: string, body: object, responses: Responses, guarded: Responses) => ({
  post: { summary, parameters: [chatIdParam], requestBody: { required: true, content: json(body) }, responses: { ...responses, "400": bad, "413": tooLarge, ...guarded } },
});

export function agentPaths(guarded: Responses) {
  return {
    "/admin/chats/{chatId}/messages": {
      get: {
        summary: "The chat's transcript, oldest first (the last 500 kept).",
        parameters: [chatIdParam, { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, maximum: 500, default: 50 } }],
        responses: { "200": { description: "The transcript.", content: json(ref("Transcript")) }, "400": bad, ...guarded },
      },
      ...post(
        "Transcript mode only: a message from the chat's user, routed like a Telegram message.",
        { type: "object", additionalProperties: false, required: ["text"], properties: { text: { type: "string", minLength: 1, maxLength: 4096 } } },
        {
          "202": { description: "Accepted.", content: json({ type: "object", required: ["messageId"], properties: { messageId: { type: "string" } } }) },
          "409": error("conflict", "the bot is connected to Telegram; write to it there."),
        },
        guarded,
      ),
    },
    "/tools/{chatId}/gate/offer": post(
      "Offer a prompt to the chat's run gate.",
      ref("PromptMessage"),
      { "200": { description: "`duplicate`, `queued`, or `run` with the token that holds the gate.", content: json(ref("GateOffer")) } },
      guarded,
    ),
    "/tools/{chatId}/gate/next": post(
      "The holder's next prompt; null releases the gate.",
      { type: "object", additionalProperties: false, required: ["token"], properties: { token: { type: "string" } } },
      { "200": { description: "The next prompt or null.", content: json({ type: "object", required: ["message"], properties: { message: { oneOf: [ref("PromptMessage"), { type: "null" }] } } }) } },
      guarded,
    ),
    "/tools/{chatId}/gate/settle": post(
      "The holder is done with a prompt; a job's key settles its run.",
      {
        type: "object",
        additionalProperties: false,
        required: ["token", "key", "status"],
        properties: { token: { type: "string" }, key: { type: "string" }, status: { enum: ["delivered", "failed"] }, detail: { type: ["string", "null"] } },
      },
      { "204": { description: "Settled." }, "409": error("conflict", "the token no longer holds the gate and the job's reply was not delivered.") },
      guarded,
    ),
    "/tools/{chatId}/deliver": post(
      "Deliver a reply to the chat; a key seen before is a no-op.",
      {
        type: "object",
        additionalProperties: false,
        required: ["key", "markdown"],
        properties: { key: { type: "string" }, markdown: { type: "string" }, prompt: { type: "string", description: "What the agent saw, recorded as the transcript's prompt entry." } },
      },
      { "200": { description: "Whether this call delivered it.", content: json({ type: "object", required: ["delivered"], properties: { delivered: { type: "boolean" } } }) } },
      guarded,
    ),
  };
}

export function agentSchemas() {
  return {
    Transcript: {
      type: "object",
      required: ["chatId", "messages"],
      properties: {
        chatId: { type: "string" },
        messages: {
          type: "array",
          items: {
            type: "object",
            required: ["id", "at", "role", "source", "text"],
            properties: {
              id: { type: "string" },
              at: { type: "string", format: "date-time" },
              role: { enum: ["user", "bot", "prompt"] },
              source: { enum: ["telegram", "admin", "job", "watcher", "alert", "command"] },
              text: { type: "string" },
              jobId: { type: "string" },
              runId: { type: "string" },
            },
          },
        },
      },
    },
    GateOffer: {
      oneOf: [
        { type: "object", required: ["result"], properties: { result: { enum: ["duplicate", "queued"] } } },
        { type: "object", required: ["result", "token"], properties: { result: { const: "run" }, token: { type: "string" } } },
      ],
    },
    PromptMessage: {
      type: "object",
      description: "The prompts queue message, version 1 (DESIGN §7).",
      required: ["v", "key", "chatId", "timeZone", "source", "text", "body", "firedAt"],
      properties: {
        v: { const: 1 },
        key: { type: "string" },
        chatId: { type: "string" },
        timeZone: { type: "string" },
        source: { enum: ["user", "job", "watcher"] },
        jobId: { type: "string" },
        jobName: { type: "string" },
        runId: { type: "string" },
        text: { type: "string", description: "The full prompt: for a job with the `[Scheduled job …]` header and the late note." },
        body: {
          type: "string",
          description: "The job's own text, the watcher's redacted output (at most 16,000 characters, its middle left out beyond that), or the user's message.",
        },
        late: { type: "boolean" },
        firedAt: { type: "string", format: "date-time" },
        dueAt: { type: "string", format: "date-time" },
        updateId: { type: "integer" },
        messageId: { type: "string" },
      },
    },
  };
}
