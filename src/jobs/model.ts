/**
 * @module A model per job and per chat (docs/agent.md#models): which models may be named (LLM_MODEL, then
 * LLM_MODELS), the sentence that refuses any other, and the model a turn runs on. A job's model wins over the
 * chat's, the chat's over LLM_MODEL; a job whose model is no longer listed runs on the chat's, and its reply says
 * so in its first line, so that a reminder is never lost to configuration. Pure.
 */

/** Why `name` cannot be chosen, or null when it can. `listed`: the bot's models, LLM_MODEL first. */
export function modelProblem(name: string, listed: readonly string[]): string | null {
  if (listed.includes(name)) return null;
  if (listed.length === 0) return `"${name.slice(0, 80)}" cannot be chosen: this bot runs no model (its owner sets LLM_MODEL, and LLM_MODELS for more).`;
  return `"${name.slice(0, 80)}" is not one of this bot's models; choose ${orList(listed)}.`;
}

/** `a`, `a or b`, `a, b or c`. */
function orList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/**
 * The model a turn runs on, from the job's (null for a user's message, or a job with none) and the chat's; `dropped`:
 * the job's own model when it is no longer listed (the reply's first line says so). A chat's model no longer
 * listed is LLM_MODEL's, without a word: `/model` shows it.
 */
export function turnModel(job: string | null, chat: string | null, listed: readonly string[]): { model: string | null; dropped: string | null } {
  const fallback = chat !== null && listed.includes(chat) ? chat : (listed[0] ?? null);
  if (job === null) return { model: fallback, dropped: null };
  return listed.includes(job) ? { model: job, dropped: null } : { model: fallback, dropped: job };
}
