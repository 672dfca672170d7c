/**
 * @module `/language` (docs/telegram.md#language): alone it shows the chat's language and the choices; `/language de`
 * sets it (a group's by its admins); `/language auto` lets it follow each message's language again (Telegram's
 * `language_code`, else the last one seen, else English). Languages are named in their own words (`Deutsch`), by
 * the runtime's `Intl.DisplayNames`; the replies are in the chat's language (`texts/`), the new one's once set.
 */
import { shown } from "../contracts/ids";
import { textsOf } from "../texts";
import { LANGS, type Lang, langOf } from "../words";
import type { Reply } from "./buttons";
import type { Asker, CommandHost } from "./host";

const CHOICES = `${LANGS.join(", ")}, auto`;

/** `Deutsch (de)`: a language in its own words, and its code. */
export function languageName(lang: Lang): string {
  const own = new Intl.DisplayNames(lang, { type: "language" }).of(lang) ?? lang;
  return `${own.charAt(0).toLocaleUpperCase(lang)}${own.slice(1)} (${lang})`;
}

/** `/language [code | auto]`. */
export async function languageCommand(host: CommandHost, who: Pick<Asker, "chatId" | "language">, args: string): Promise<Reply> {
  const arg = args.trim();
  const asked = (await textsOf(langOf(who.language) ?? "en")).language;
  if (arg === "") {
    const current = await host.getLanguage(who.chatId);
    return { markdown: current.ok ? asked.show(languageName(current.value.language), current.value.chosen, CHOICES) : current.error.message };
  }
  const auto = /^(?:auto|reset|off)$/i.test(arg);
  // A language tag (`de`, `pt-BR`), of which the language counts.
  const lang = auto ? null : langOf(/^[a-z]{2}(?:[-_][a-z0-9]{2,8})*$/i.test(arg) ? arg : undefined);
  if (!auto && lang === null) return { markdown: asked.unknown(shown(arg), CHOICES) };
  const set = await host.setLanguage(who.chatId, lang);
  if (!set.ok) return { markdown: set.error.message };
  // Said in the language the chat has now.
  const now = (await textsOf(set.value.language)).language;
  return { markdown: lang === null ? now.auto : now.set(languageName(lang)) };
}
