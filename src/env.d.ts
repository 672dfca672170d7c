/**
 * @module What `wrangler.toml` does not declare, so `wrangler types` cannot see it, merged into the generated `Env`:
 * the vars and secrets of docs/api.md#access left out of it (all optional, derived from the table of vars in
 * src/vars.ts, `set: "secret"` or `"optional"`; `src/vars.ts` is the only reader), and the `AI` binding, which only
 * the configuration `npm run deploy` deploys declares (docs/agent.md#workers-ai: wrangler has no local Workers AI).
 */
type CuckooOptionalVars = import("./vars").OptionalVars;

/** The bindings wrangler.toml leaves out. */
interface CuckooOptionalBindings {
  /** Workers AI, for `LLM_PROVIDER=workers-ai`; absent under `npm run dev`, the tests and a plain `wrangler dev`. */
  AI?: Ai;
}

interface Env extends CuckooOptionalVars, CuckooOptionalBindings {}
declare namespace Cloudflare {
  interface Env extends CuckooOptionalVars, CuckooOptionalBindings {}
}
