/**
 * @module What a chat can keep of a model's answer (docs/agent.md#the-model-agent-agentllm, issue 22), so that no answer is
 * ever a reason to try a turn again: a reply over 128,000 characters is cut with a marked end; of a step's tool
 * calls, those beyond 8, with a name over 100 characters or with arguments over 16 KB are answered to the model
 * as refused and the turn goes on; a call whose id the turn used already (in the same answer or an earlier
 * step) is not run, and is kept under a fresh id answered `Not run: this call id was already used.`, so that the
 * conversation sent back has each id once, each with one answer, as a model's server requires; a tool's answer,
 * as the model reads it, is kept within 64 KB. Pure.
 */

import { cutToBytes, utf8Bytes } from "../bytes";
import type { StepAnswer, StepCall, StepResult } from "../contracts/turn";
import { withoutTokens } from "../hooks/token";
import type { Completion } from "./model";

export const MAX_REPLY_CHARS = 128_000;
export const MAX_CALLS_PER_STEP = 8;
export const MAX_TOOL_NAME_CHARS = 100;
export const MAX_ARGS_BYTES = 16 * 1024;
/**
 * The calls of one step the turn keeps at all (answered, recorded, shown in the transcript). A model that asks
 * for more in one answer has the rest left out of the conversation, as if it had not asked.
 */
export const MAX_KEPT_CALLS = 32;
/** A call's id as kept (the models' are a few dozen characters). */
export const MAX_CALL_ID_CHARS = 200;
/** A tool's answer as the model reads it (its JSON). */
export const MAX_RESULT_BYTES = 64 * 1024;

const REPLY_CUT = "\n\n…(cut here: the reply was longer than 128,000 characters)";
const RESULT_CUT = "\n…(cut here: the tool's answer was over 64 KB, and its data is left out)";

const TOO_MANY = `Refused: at most ${MAX_CALLS_PER_STEP} tool calls run in one step; make this call again in the next step if it is still needed.`;
const LONG_NAME = `Refused: no tool has a name over ${MAX_TOOL_NAME_CHARS} characters; call one of the tools you were given, by its name.`;
const BIG_ARGS = "Refused: the arguments are over 16 KB; send shorter ones (a job's text is at most 4,000 characters).";
/** The answer to a call whose id was used before in the turn: run once already, or meant as another call. */
export const REPEATED_ID = "Not run: this call id was already used.";

/** The reply as the chat keeps it: at most 128,000 characters, the cut marked (never half of a surrogate pair). */
export function keptReply(text: string): string {
  if (text.length <= MAX_REPLY_CHARS) return text;
  let end = MAX_REPLY_CHARS - REPLY_CUT.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + REPLY_CUT;
}

/**
 * A step's answer as the turn keeps it, and for each kept call the refusal the model is answered with instead
 * of running its tool (null: the tool runs). A refused call keeps its id, its name cut to 100 characters and
 * `{}` for arguments, so the conversation stays one the model's server takes back; a call whose id is in `used`
 * (the turn's earlier steps) or came earlier in this answer gets a fresh id, one no call of the turn has.
 */
export function keptAnswer(reply: Completion, used: ReadonlySet<string> = new Set()): { answer: StepAnswer; refused: (string | null)[] } {
  const calls: StepCall[] = [];
  const refused: (string | null)[] = [];
  const kept = reply.toolCalls.slice(0, MAX_KEPT_CALLS);
  const seen = new Set(used);
  // A fresh id is none the model sent in this answer either: a later call of its own keeps its id.
  const taken = new Set([...used, ...kept.map((call) => call.id.slice(0, MAX_CALL_ID_CHARS))]);
  for (const [i, call] of kept.entries()) {
    const { name, arguments: args } = call.function;
    let id = call.id.slice(0, MAX_CALL_ID_CHARS);
    const repeated = seen.has(id);
    if (repeated) id = freshId(id, taken);
    seen.add(id);
    taken.add(id);
    const why = repeated
      ? REPEATED_ID
      : i >= MAX_CALLS_PER_STEP
        ? TOO_MANY
        : name.length > MAX_TOOL_NAME_CHARS
          ? LONG_NAME
          : utf8Bytes(args) > MAX_ARGS_BYTES
            ? BIG_ARGS
            : null;
    calls.push(why === null ? { id, name, args } : { id, name: name.slice(0, MAX_TOOL_NAME_CHARS), args: "{}" });
    refused.push(why);
  }
  return { answer: { content: reply.content === null ? null : keptReply(reply.content), calls }, refused };
}

/** `<id>~2`, `<id>~3` …: the first that no call of the turn has, within the id's length limit. */
function freshId(id: string, taken: ReadonlySet<string>): string {
  for (let n = 2; ; n++) {
    const suffix = `~${n}`;
    const fresh = id.slice(0, MAX_CALL_ID_CHARS - suffix.length) + suffix;
    if (!taken.has(fresh)) return fresh;
  }
}

/** A tool's answer as the turn keeps it: whole within 64 KB as the model reads it, else its sentence cut and its data left out. */
export function keptResult(answer: { ok: boolean; text: string; data?: unknown }): StepResult {
  // A hook's address is shown once, never to the model (docs/hooks.md): what it reads and the turn records has `[shown once]`.
  const reply = { ok: answer.ok, text: withoutTokens(answer.text) };
  const data = answer.data === undefined ? undefined : withoutTokens(JSON.stringify(answer.data));
  const result: StepResult = data === undefined ? reply : { ...reply, data };
  if (utf8Bytes(resultContent(result)) <= MAX_RESULT_BYTES) return result;
  // Half the room for the text: JSON may escape what it holds (a newline, a quote) in two bytes.
  return { ok: reply.ok, text: cutToBytes(reply.text, MAX_RESULT_BYTES / 2, RESULT_CUT) };
}

/** A tool's answer as the model reads it: `{ "ok", "text", "data" }`, the JSON the tool endpoint answers. */
export function resultContent(result: StepResult): string {
  return `{"ok":${result.ok},"text":${JSON.stringify(result.text)}${result.data === undefined ? "" : `,"data":${result.data}`}}`;
}
