/**
 * @module `/model` (docs/agent.md#models): alone it shows the model the chat's turns run on and the choices; `/model
 * <name>` sets it (a group's by its admins); `/model default` goes back to the bot's (LLM_MODEL). A job's own model
 * wins over the chat's. The replies are in the chat's language.
 */
import { shown } from "../contracts/ids";
import { voiceOf } from "../texts";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";

/** `/model [name | default]`. */
export async function modelCommand(host: CommandHost, who: Pick<Asker, "chatId" | "language">, args: string): Promise<Reply> {
  const { t } = await voiceOf(who.language);
  const arg = args.trim();
  const current = await host.getModel(who.chatId);
  if (!current.ok) return { markdown: current.error.message };
  const { choices, effective } = current.value;
  if (effective === null || choices.length === 0) return { markdown: t.model.none };
  const list = t.zone.and(choices);
  if (arg === "") return { markdown: choices.length === 1 ? t.model.only(effective) : t.model.shown(effective, current.value.model === null, list) };
  const reset = arg.toLowerCase() === t.model.defaultWord.toLowerCase() || /^(?:default|reset)$/i.test(arg);
  // Model names are matched as written, then without regard to case (`GPT-4o` is gpt-4o).
  const name = reset ? null : (choices.find((c) => c === arg) ?? choices.find((c) => c.toLowerCase() === arg.toLowerCase()) ?? null);
  if (!reset && name === null) return { markdown: t.model.unknown(shown(arg.slice(0, 80)), list) };
  const set = await host.setModel(who.chatId, name);
  if (!set.ok) return { markdown: set.error.message };
  return { markdown: set.value.model === null ? t.model.reset(set.value.effective ?? effective) : t.model.set(set.value.model) };
}
