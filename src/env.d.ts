/**
 * @module The vars and secrets of docs/api.md#access that `wrangler.toml` does not declare, so `wrangler types` cannot
 * see them: all optional. Merged into the generated `Env`; `src/config.ts` is the only reader.
 */
interface CuckooOptionalVars {
  CUCKOO_DEV_SPEEDUP?: string;
  TELEGRAM_BOT_TOKEN?: string;
  TELEGRAM_WEBHOOK_SECRET?: string;
  ALLOWED_USER_IDS?: string;
  ALLOWED_CHAT_IDS?: string;
  MINI_APP_NAME?: string;
  ADMIN_TOKEN?: string;
  TOOLS_TOKEN?: string;
  RUNNER_URL?: string;
  RUNNER_SECRET?: string;
  PUBLIC_URL?: string;
  AGENT?: string;
  LLM_BASE_URL?: string;
  LLM_API_KEY?: string;
  LLM_MODEL?: string;
  LLM_INSTRUCTIONS?: string;
  LLM_MAX_TURNS_PER_DAY?: string;
  LLM_TIMEOUT_SECONDS?: string;
  MAX_WAKEUPS_PER_DAY?: string;
}

interface Env extends CuckooOptionalVars {}
declare namespace Cloudflare {
  interface Env extends CuckooOptionalVars {}
}
