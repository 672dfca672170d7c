// Bench only (bench/startup.mjs): stands in for every module of the MCP SDK that src/mcp/server.ts imports, so
// the Worker can be built without the SDK and its start-up compared with and without it. Never deployed.
class Missing {
  constructor() {
    throw new Error("the MCP SDK is left out of this bench build");
  }
}
export const Server = Missing;
export const WebStandardStreamableHTTPServerTransport = Missing;
export const CfWorkerJsonSchemaValidator = Missing;
export const CallToolRequestSchema = {};
export const ListToolsRequestSchema = {};
export const ErrorCode = { InvalidParams: -32602 };
export const isJSONRPCRequest = () => false;
