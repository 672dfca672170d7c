/**
 * @module `/mcp/:chatId` (DESIGN §9): the agent tools over MCP for outside agents, behind TOOLS_TOKEN (and the
 * open-dev rules of §2), for the chat of the path only. The SDK is loaded on the first MCP request.
 */
import { Hono } from "hono";
import { requireToken } from "./auth";
import { limitBody } from "./body";
import { chatIdOf } from "./chat-rpc";
import { requireConfigured, type AppEnv } from "./context";
import { toolContext } from "./tools";

export const mcp = new Hono<AppEnv>();

mcp.use("*", requireToken("TOOLS_TOKEN"));
mcp.use("*", requireConfigured("tools"));
mcp.use("*", limitBody());

mcp.all("/:chatId", async (c) => {
  const chatId = chatIdOf(c);
  const { handleMcp } = await import("../mcp/server");
  return handleMcp(c.req.raw, toolContext(c.env, chatId));
});
