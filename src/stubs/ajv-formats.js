// See ajv.js beside this file: aliased for the MCP SDK, never called in the Worker.
export default function addFormats() {
  throw new Error("ajv-formats is not available in the Worker");
}
