/**
 * @module `/language` (docs/telegram.md#language): alone it shows the chat's language and the choices; `/language de`
 * sets it (a group's by its admins); `/language auto` lets it follow each message's language again (Telegram's
 * `language_code`, else the last one seen, else English). Languages are named in their own words (`Deutsch`), by
 * the runtime's `Intl.DisplayNames`.
 */
import { shown } from "../contracts/ids";
import { LANGS, type Lang, langOf } from "../words";
import type { Reply } from "./buttons";
import type { CommandHost } from "./host";

const CHOICES = `${LANGS.join(", ")}, or auto`;

/** `Deutsch (de)`: a language in its own words, and its code. */
export function languageName(lang: Lang): string {
  const own = new Intl.DisplayNames(lang, { type: "language" }).of(lang) ?? lang;
  return `${own.charAt(0).toLocaleUpperCase(lang)}${own.slice(1)} (${lang})`;
}

/** What `/language` alone says: the language and where it comes from, then how to change it. */
export function languageShowText(answer: { language: Lang; chosen: boolean }): string {
  const from = answer.chosen ? "set with /language" : "from the language of your Telegram app";
  return `Language: ${languageName(answer.language)}, ${from}. Change it with /language followed by one of ${CHOICES} (each message's language).`;
}

export const languageSetText = (lang: Lang) => `Language set to ${languageName(lang)}.`;

export const LANGUAGE_AUTO_TEXT =
  "The chat's language now follows each message's: the language of the sender's Telegram app when it is one I speak, else the last such, else English.";

/** `/language [code | auto]`. */
export async function languageCommand(host: CommandHost, chatId: string, args: string): Promise<Reply> {
  const arg = args.trim();
  if (arg === "") {
    const current = await host.getLanguage(chatId);
    return { markdown: current.ok ? languageShowText(current.value) : current.error.message };
  }
  const auto = /^(?:auto|reset|off)$/i.test(arg);
  // A language tag (`de`, `pt-BR`), of which the language counts.
  const lang = auto ? null : langOf(/^[a-z]{2}(?:[-_][a-z0-9]{2,8})*$/i.test(arg) ? arg : undefined);
  if (!auto && lang === null) return { markdown: `"${shown(arg)}" is not a language I speak; choose one of ${CHOICES}, such as /language de.` };
  const set = await host.setLanguage(chatId, lang);
  if (!set.ok) return { markdown: set.error.message };
  return { markdown: lang === null ? LANGUAGE_AUTO_TEXT : languageSetText(lang) };
}
