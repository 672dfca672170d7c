// The MCP SDK imports ajv for its default JSON-schema validator, which compiles with `new Function` (forbidden
// in Workers). The Worker always passes CfWorkerJsonSchemaValidator, so ajv is never constructed: wrangler.toml
// aliases it to this stub, which keeps ~130 KiB out of the bundle and fails loudly if ever used.
export default class Ajv {
  constructor() {
    throw new Error("ajv is not available in the Worker; pass jsonSchemaValidator: new CfWorkerJsonSchemaValidator()");
  }
}
