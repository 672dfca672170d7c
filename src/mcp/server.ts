/**
 * @module The MCP server (docs/api.md#tools-for-agents, issues 13 and 16): the agent tools (eleven for the schedule, five for memory)
 * over MCP's streamable HTTP transport, stateless (a new server and transport per request, no session, one
 * JSON answer per POST). Tools are listed with their JSON Schemas from the one zod source and called through
 * the tool catalog, as `/tools` calls them, for this request's chat only; a result carries the tool's `text` as
 * content and its `data` as structured content. Errors as MCP 2025-11-25 sorts them: a malformed `tools/call`
 * (its `name` not a string, its `arguments` not an object) and an unknown tool are JSON-RPC -32602 with one
 * sentence; arguments that fail the tool's schema, and a call the turn may not make, are a tool result with
 * `isError: true` and the sentence, which the model reads. Loaded with `import()` by the route (evaluating the
 * SDK costs ~15 ms of CPU that no other request pays).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, type CallToolResult, ErrorCode, isJSONRPCRequest, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { Parsed } from "../result";
import { failed, type ToolReply } from "../schemas/tools";
import { toolNamed, toolSchemas, unknownToolText } from "../tools/catalog";
import type { ToolContext } from "../tools/schedule";
import { VERSION } from "../version";

/** A JSON-RPC -32602 whose message is the sentence itself (the SDK's `McpError` prefixes its message). */
class InvalidParams extends Error {
  readonly code = ErrorCode.InvalidParams;
}

const NAME = '"params.name" must be the name of a tool, as a string, such as "schedule_list"; tools/list lists them.';
const ARGUMENTS = `"params.arguments" must be an object of the tool's arguments, such as {"id": "k7m2q"}, or left out.`;
const MALFORMED = 'A tools/call request takes params { "name": "<tool>", "arguments": { … } }; this one does not follow MCP\'s schema.';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Why a `tools/call` request is malformed, as one sentence, or null when the SDK's schema takes it. */
function malformedCall(message: unknown): string | null {
  const params = isObject(message) ? message.params : undefined;
  if (!isObject(params) || typeof params.name !== "string") return NAME;
  if (params.arguments !== undefined && !isObject(params.arguments)) return ARGUMENTS;
  return CallToolRequestSchema.safeParse(message).success ? null : MALFORMED;
}

/** A tool's reply as an MCP tool result. */
function toolResult(reply: ToolReply): CallToolResult {
  return {
    content: [{ type: "text", text: reply.text }],
    structuredContent: { ok: reply.ok, text: reply.text, ...(reply.data !== undefined ? { data: reply.data } : {}) },
    ...(reply.ok ? {} : { isError: true }),
  };
}

/**
 * Answers one MCP POST for the chat of the context (access was checked by the route). `context` is asked on a
 * tool call only: it reads `X-Cuckoo-Turn`, which costs a call to the chat's object when given.
 */
export async function handleMcp(request: Request, context: () => Promise<Parsed<ToolContext>>): Promise<Response> {
  const server = new Server(
    { name: "cuckoo", version: VERSION },
    // Workers forbid `new Function`: the SDK's default validator (ajv) compiles with it. Used for elicitation
    // only; tool arguments are checked by the tools' own zod schemas.
    { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolSchemas().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as { type: "object" } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call) => {
    const tool = toolNamed(call.params.name);
    if (!tool) throw new InvalidParams(unknownToolText(call.params.name));
    const ctx = await context();
    return toolResult(ctx.ok ? await tool.invoke(ctx.value, call.params.arguments ?? {}) : failed(ctx.error));
  });
  // Stateless: no session id, one JSON response per POST (no SSE stream kept open by a Worker).
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  // The SDK parses a request against its schema before any handler sees it and answers a malformed tools/call
  // with the validator's dump: such a request is answered here first, with the sentence.
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) && message.method === "tools/call" ? malformedCall(message) : null;
    if (problem === null || !isJSONRPCRequest(message)) {
      deliver?.(message, extra);
      return;
    }
    transport
      .send({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InvalidParams, message: problem } })
      .catch((error: unknown) => console.error("mcp: the answer to a malformed tools/call was not sent:", error));
  };
  return transport.handleRequest(request);
}
