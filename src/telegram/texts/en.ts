/**
 * @module The replies in English (docs/telegram.md#language): the table every other language's follows, key for key
 * (its type is `Texts`; `test/unit/texts.test.ts` fails when a language lacks one). A function takes what a reply
 * names; the caller quotes what the user typed (`shown`) before it gets here.
 */
export const texts = {
  language: {
    /** `/language` alone: the language in its own words (`Deutsch (de)`), whether /language set it, the choices. */
    show: (name: string, chosen: boolean, choices: string) =>
      `Language: ${name}, ${chosen ? "set with /language" : "from the language of your Telegram app"}. ` +
      `Change it with /language followed by one of ${choices} (each message's language).`,
    set: (name: string) => `Language set to ${name}.`,
    auto: "The chat's language now follows each message's: the language of the sender's Telegram app when it is one I speak, else the last such, else English.",
    unknown: (typed: string, choices: string) => `"${typed}" is not a language I speak; choose one of ${choices}, such as /language de.`,
  },
  quiet: {
    none: "No quiet hours: every message arrives with its notification sound. Set them with /quiet 22:00-07:00.",
    show: (hours: string, zone: string) =>
      `Quiet hours: ${hours} (${zone}): messages sent then arrive without a sound. Change them with /quiet 23:00-06:30, or turn them off with /quiet off.`,
    set: (hours: string, zone: string) => `Quiet hours set: ${hours} (${zone}). Messages sent then arrive without a sound; nothing is held back.`,
    quietNow: " It is quiet now.",
    off: "Quiet hours off: every message arrives with its notification sound.",
    unreadable: (typed: string) =>
      `I couldn't read "${typed}" as quiet hours: give when they start and end, in your time zone. Try /quiet 22:00-07:00 or /quiet off.`,
  },
};

/** The replies' table: English's shape, which each language's table has too. */
export type Texts = typeof texts;
