/**
 * @module The MCP server (DESIGN §9, issues 13 and 16): the agent tools (nine for the schedule, five for memory)
 * over MCP's streamable HTTP transport, stateless (a new server and transport per request, no session, one
 * JSON answer per POST). Tools are listed with their JSON Schemas from the one zod source and called through
 * the same code as `/tools`, for this request's chat only; a result carries the tool's `text` as content and
 * its `data` as structured content. Loaded with `import()` by the route (evaluating the SDK costs ~15 ms of CPU
 * that no other request pays).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { VERSION } from "../version";
import { callTool, toolSchemas } from "../tools/catalog";
import type { ToolContext } from "../tools/schedule";

/** Answers one MCP request for the chat of `ctx` (access was checked by the route). */
export async function handleMcp(request: Request, ctx: ToolContext): Promise<Response> {
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
    const reply = await callTool(ctx, call.params.name, call.params.arguments ?? {});
    return {
      content: [{ type: "text" as const, text: reply.text }],
      structuredContent: { ok: reply.ok, text: reply.text, ...(reply.data !== undefined ? { data: reply.data } : {}) },
      ...(reply.ok ? {} : { isError: true }),
    };
  });
  // Stateless: no session id, one JSON response per POST (no SSE stream kept open by a Worker).
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}
