/**
 * The agent's tools, in the catalog's order, as the model (AGENT=llm) and MCP clients see them (docs/api.md#tools-for-agents):
 * one list for the worker and end-to-end tests, in a module of its own so that both tiers can import it; and the
 * fields `schedule_create` takes.
 */
export const TOOL_NAMES: readonly string[] = [
  "schedule_create",
  "schedule_update",
  "schedule_list",
  "schedule_cancel",
  "schedule_run_now",
  "schedule_pause",
  "schedule_resume",
  "schedule_skip",
  "schedule_hook",
  "schedule_preview",
  "schedule_test",
  "set_timezone",
  "memory_list",
  "memory_get",
  "memory_create",
  "memory_update",
  "memory_delete",
];

/** `schedule_create`'s arguments, sorted: every field of a job's create body (docs/api.md). */
export const CREATE_FIELDS: readonly string[] = [
  "at",
  "before",
  "command",
  "cron",
  "delay",
  "grace",
  "kind",
  "memoryRefs",
  "missed",
  "model",
  "name",
  "onlyOnChange",
  "repeat",
  "rrule",
  "runsLeft",
  "silent",
  "start",
  "text",
  "timeoutSeconds",
  "trigger",
  "until",
];
