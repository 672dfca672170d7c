/**
 * @module The hand-written OpenAPI 3.1 document of the HTTP API as it exists so far (`GET /admin/openapi.json`).
 * Each issue that adds a route adds it here; a worker test checks the paths listed against the routes.
 */
import { ERROR_STATUS, type ErrorCode } from "../schemas/errors";
import { agentPaths, agentSchemas } from "./openapi-agent";
import { chatIdParam, jobPaths, jobSchemas } from "./openapi-jobs";

const json = (schema: object) => ({ "application/json": { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function errorResponse(code: ErrorCode, description: string) {
  return { description: `\`${code}\`: ${description}`, content: json(ref("Error")) };
}

/** Responses every token-guarded route can give (DESIGN §2, §10). */
const guarded = {
  "401": errorResponse("unauthorized", "the token is set and the request has no bearer token or a wrong one."),
  "403": errorResponse("forbidden", "open dev mode (CUCKOO_DEV=1, no token): the request is not from a localhost page, or a POST/PUT/PATCH is not application/json."),
  "500": errorResponse("config_error", "a var this route depends on is invalid; the message says which."),
  "503": errorResponse("not_configured", "deployed without the route's token; the message names the secret to set."),
};

/** The document, built on request (nothing at module scope). */
export function openApiDocument(version: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Cuckoo",
      version,
      description:
        "A serverless scheduler for AI agents in Telegram chats. Errors are `{ error: { code, message } }`, the message one sentence naming the field and showing an accepted form.",
    },
    security: [{ bearer: [] }],
    paths: {
      "/healthz": {
        get: {
          summary: "Health: the modes the Worker runs in, or every configuration error.",
          security: [],
          responses: {
            "200": { description: "Configured.", content: json(ref("HealthOk")) },
            "503": { description: "One or more vars are invalid.", content: json(ref("HealthErrors")) },
          },
        },
      },
      "/admin/preview": {
        post: {
          summary: "The next occurrences of a schedule, with notes on DST-moved ones and a description.",
          requestBody: { required: true, content: json(ref("PreviewRequest")) },
          responses: {
            "200": { description: "The preview.", content: json(ref("PreviewResponse")) },
            "400": errorResponse("bad_request", "malformed JSON, a wrong type, an unknown field, or a schedule the time rules reject."),
            "413": errorResponse("payload_too_large", "the body is over 64 KiB."),
            ...guarded,
          },
        },
      },
      "/admin/openapi.json": {
        get: {
          summary: "This document.",
          responses: {
            "200": { description: "The OpenAPI 3.1 document.", content: json({ type: "object" }) },
            ...guarded,
          },
        },
      },
      ...jobPaths(guarded),
      ...agentPaths(guarded),
      "/runner/callback/{chatId}": {
        post: {
          summary: "The runner's callback: the outcome of a watcher's run, signed with RUNNER_SECRET (for the runner, not for people).",
          description:
            "No bearer token: the request is signed like every runner request (DESIGN §8). It answers 204 for any run id, also an unknown, settled or cancelled one, so the runner stops retrying; only a run still waiting for the runner takes the outcome. A run id is `<chatId>:<jobId>:<dueAt epoch ms>`. In container mode the runner calls back on an internal host instead, which the Container class's outbound handler routes to the same checks and the chat's object, so no public URL is needed, and this public route answers 404.",
          security: [{ runnerSignature: [] }],
          parameters: [chatIdParam],
          requestBody: { required: true, content: json(ref("RunnerOutcome")) },
          responses: {
            "204": { description: "Received, whatever the run id." },
            "400": errorResponse(
              "bad_request",
              "the chat id is not a Telegram chat id, the body is not JSON or not an outcome, or the outcome is another chat's (`The outcome is for chat 42, not 123456789.`).",
            ),
            "401": errorResponse(
              "unauthorized",
              'the signature is missing, wrong or more than 300 s old, or RUNNER_SECRET is unset (`The X-Cuckoo-Signature header is missing, wrong or older than 300 s; sign "<t>.<body>" with RUNNER_SECRET.`); nothing changes.',
            ),
            "404": errorResponse("not_found", "the runner runs in the container (callbacks come only through its outbound handler)."),
            "413": errorResponse("payload_too_large", "the body is over 1 MiB (`The body is larger than 1 MiB.`)."),
            "500": errorResponse("config_error", "a runner var is invalid (the message names it)."),
          },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "ADMIN_TOKEN for /admin/*, TOOLS_TOKEN for /tools/* and /mcp/*.",
        },
        runnerSignature: {
          type: "apiKey",
          in: "header",
          name: "X-Cuckoo-Signature",
          description:
            '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with RUNNER_SECRET>`, accepted while `t` is within 300 s of now; the MAC is compared in constant time.',
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          additionalProperties: false,
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              additionalProperties: false,
              properties: {
                code: { type: "string", enum: Object.keys(ERROR_STATUS) },
                message: { type: "string", description: "One sentence a person or a model can act on." },
              },
            },
          },
        },
        HealthOk: {
          type: "object",
          required: ["ok", "version", "telegram", "runner", "agent"],
          properties: {
            ok: { const: true },
            version: { type: "string" },
            telegram: { enum: ["off", "webhook"] },
            runner: { enum: ["off", "url", "container"], description: "url when RUNNER_URL is set (it wins over the container binding); container with the RUNNER binding once RUNNER_SECRET is set; off otherwise." },
            agent: { enum: ["echo", "llm"] },
            blockedChats: { type: "integer", description: "With a bot: chats Telegram said cannot be reached (from the D1 directory)." },
          },
        },
        HealthErrors: {
          type: "object",
          required: ["ok", "errors"],
          properties: { ok: { const: false }, errors: { type: "array", items: { type: "string" } } },
        },
        PreviewRequest: {
          type: "object",
          description: "Exactly one of cron, at, delay.",
          additionalProperties: false,
          properties: {
            cron: { type: "string", description: "Five fields or a macro, in the zone's wall-clock time.", examples: ["30 2 * * *"] },
            at: { type: "string", description: "ISO 8601 date or date-time; without an offset it is read in the zone.", examples: ["2026-09-27T09:00"] },
            delay: { type: "string", description: "ISO 8601 duration from `from`, 1 minute to 5 years.", examples: ["PT20M"] },
            timeZone: { type: "string", description: "IANA zone (Windows ids accepted); default DEFAULT_TIMEZONE.", examples: ["Europe/Berlin"] },
            from: { type: "string", format: "date-time", description: "The instant that stands for now; default now." },
            count: { type: "integer", minimum: 1, maximum: 20, default: 5 },
          },
        },
        PreviewResponse: {
          type: "object",
          required: ["timeZone", "occurrences", "notes", "description"],
          properties: {
            timeZone: { type: "string" },
            occurrences: { type: "array", items: { type: "string", format: "date-time" }, description: "RFC 3339 UTC, in order." },
            notes: { type: "array", items: { type: "string" }, description: "One sentence per occurrence a DST transition moved." },
            description: { type: "string" },
          },
        },
        RunnerOutcome: {
          type: "object",
          description:
            "What a watcher's run did (DESIGN §8). On the admin API and the tools, stdout and stderrTail are redacted (every secret the Worker holds is `[REDACTED]`).",
          required: ["runId", "chatId", "status", "exitCode", "timedOut", "stdout", "stderrTail", "truncated", "startedAt", "finishedAt"],
          properties: {
            runId: { type: "string", minLength: 1, maxLength: 200, examples: ["123456789:k7m2q:1796000400000", "123456789:test:1796000400000:9f2c4e1a"] },
            chatId: { type: "string", pattern: "^-?[1-9]\\d{0,15}$" },
            status: { enum: ["silent", "output", "failed"], description: "silent: exit 0 and stdout empty after trimming; output: exit 0 with output; failed: anything else." },
            exitCode: { type: ["integer", "null"], description: "null when it timed out, was cancelled or did not start; 128 + n when killed by signal n." },
            timedOut: { type: "boolean" },
            stdout: { type: "string", description: "As printed: the first 48 KiB and the last 16 KiB, with a line saying how many bytes were left out between them." },
            stderrTail: { type: "string", description: "The last 20 lines of stderr; the reason when the script did not start." },
            truncated: {
              type: "object",
              required: ["stdout", "stderr"],
              properties: { stdout: { type: "boolean" }, stderr: { type: "boolean" } },
              description: "Whether the middle of a stream was left out.",
            },
            startedAt: { type: "string", format: "date-time" },
            finishedAt: { type: "string", format: "date-time" },
          },
        },
        ...jobSchemas(),
        ...agentSchemas(),
      },
    },
  };
}
