/**
 * @module Redaction (docs/api.md#how-a-job-fires): every secret the Worker holds becomes `[REDACTED]` in watcher output, alerts
 * and stored stderr tails, before any of it is stored, queued or sent.
 */
import type { Config } from "../config";

export const REDACTED = "[REDACTED]";
/** Shorter values are not searched for: a one-letter "secret" would redact every copy of that letter. */
const MIN_SECRET_LENGTH = 4;

/** The secret values of a config: bot token, webhook secret, admin and tools tokens, runner secret, LLM key. */
export function secretsOf(config: Config): string[] {
  const values = [config.telegram.botToken, config.telegram.webhookSecret, config.adminToken, config.toolsToken, config.runner.secret, config.agent.apiKey];
  // Longest first, so a secret that contains another is replaced whole.
  return [...new Set(values.filter((v): v is string => v !== null && v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of every secret replaced by `[REDACTED]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
