/**
 * @module The vars and secrets of docs/api.md#access that `wrangler.toml` does not declare, so `wrangler types` cannot
 * see them: all optional, derived from the table of vars in src/vars.ts (`set: "secret"` or `"optional"`). Merged into
 * the generated `Env`; `src/vars.ts` is the only reader.
 */
type CuckooOptionalVars = import("./vars").OptionalVars;

interface Env extends CuckooOptionalVars {}
declare namespace Cloudflare {
  interface Env extends CuckooOptionalVars {}
}
