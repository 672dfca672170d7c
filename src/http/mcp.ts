/**
 * @module `/mcp/:chatId` (docs/api.md#tools-for-agents): the agent tools over MCP for outside agents, behind TOOLS_TOKEN (and the
 * open-dev rules of docs/api.md#access), for the chat of the path only. The server keeps no sessions, so only POST carries
 * requests; any other method is 405 with `Allow: POST` (a GET would otherwise open an event stream on which
 * nothing is ever sent). The SDK is loaded on the first MCP request.
 */
import { Hono } from "hono";
import { requireToken } from "./auth";
import { limitBody } from "./body";
import { chatIdOf } from "./chat-rpc";
import { type AppEnv, requireConfigured } from "./context";
import { toolContext } from "./tools";

export const mcp = new Hono<AppEnv>();

mcp.use("*", requireToken("TOOLS_TOKEN"));
mcp.use("*", requireConfigured("tools"));
mcp.use("*", limitBody());

/** The answer to a method other than POST: a JSON-RPC error, as MCP clients read errors (no request id to name). */
const ONLY_POST = { jsonrpc: "2.0", id: null, error: { code: -32000, message: "This MCP server keeps no sessions: send each request as a POST." } } as const;

mcp.all("/:chatId", async (c) => {
  const chatId = chatIdOf(c);
  if (c.req.method !== "POST") return c.json(ONLY_POST, 405, { Allow: "POST" });
  const { handleMcp } = await import("../mcp/server");
  return handleMcp(c.req.raw, () => toolContext(c, chatId));
});
