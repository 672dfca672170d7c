/** @module The replies in Dutch (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Taal: ${name}, ${chosen ? "gekozen met /language" : "die van je Telegram-app"}. ` +
      `Wijzig hem met /language gevolgd door ${choices} (de taal van elk bericht).`,
    set: (name) => `Taal ingesteld op ${name}.`,
    auto: "De taal van de chat volgt nu elk bericht: die van de Telegram-app van de afzender als ik die spreek, anders de laatste zulke, anders Engels.",
    unknown: (typed, choices) => `"${typed}" is geen taal die ik spreek; kies er een uit ${choices}, bijvoorbeeld /language nl.`,
  },
  quiet: {
    none: "Geen stille uren: elk bericht komt met zijn meldingsgeluid. Stel ze in met /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Stille uren: ${hours} (${zone}): berichten die dan worden verstuurd komen zonder geluid. Wijzig ze met /quiet 23:00-06:30 of zet ze uit met /quiet off.`,
    set: (hours, zone) => `Stille uren ingesteld: ${hours} (${zone}). Berichten die dan worden verstuurd komen zonder geluid; niets wordt tegengehouden.`,
    quietNow: " Het is nu stil.",
    off: "Stille uren uit: elk bericht komt met zijn meldingsgeluid.",
    unreadable: (typed) =>
      `Ik kon "${typed}" niet lezen als stille uren: geef aan wanneer ze beginnen en eindigen, in je tijdzone. Probeer /quiet 22:00-07:00 of /quiet off.`,
  },
};
