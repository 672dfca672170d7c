/** @module The replies in German (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Sprache: ${name}, ${chosen ? "mit /language gewählt" : "aus der Sprache deiner Telegram-App"}. ` +
      `Ändere sie mit /language und einem von ${choices} (die Sprache jeder Nachricht).`,
    set: (name) => `Sprache auf ${name} gestellt.`,
    auto: "Die Sprache des Chats folgt jetzt jeder Nachricht: der Sprache der Telegram-App des Absenders, wenn ich sie spreche, sonst der letzten solchen, sonst Englisch.",
    unknown: (typed, choices) => `„${typed}“ ist keine Sprache, die ich spreche; wähle eine von ${choices}, etwa /language de.`,
  },
  quiet: {
    none: "Keine Ruhezeiten: jede Nachricht kommt mit ihrem Benachrichtigungston. Lege sie fest mit /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Ruhezeiten: ${hours} (${zone}): Nachrichten, die dann gesendet werden, kommen ohne Ton. Ändere sie mit /quiet 23:00-06:30 oder schalte sie aus mit /quiet off.`,
    set: (hours, zone) => `Ruhezeiten festgelegt: ${hours} (${zone}). Nachrichten, die dann gesendet werden, kommen ohne Ton; nichts wird zurückgehalten.`,
    quietNow: " Jetzt ist Ruhezeit.",
    off: "Ruhezeiten aus: jede Nachricht kommt mit ihrem Benachrichtigungston.",
    unreadable: (typed) =>
      `Ich konnte „${typed}“ nicht als Ruhezeiten lesen: gib an, wann sie beginnen und enden, in deiner Zeitzone. Versuche /quiet 22:00-07:00 oder /quiet off.`,
  },
};
