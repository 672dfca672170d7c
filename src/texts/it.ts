/** @module The replies in Italian (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Lingua: ${name}, ${chosen ? "scelta con /language" : "quella della tua app Telegram"}. ` +
      `Cambiala con /language seguito da ${choices} (la lingua di ogni messaggio).`,
    set: (name) => `Lingua impostata su ${name}.`,
    auto: "La lingua della chat ora segue ogni messaggio: quella dell'app Telegram di chi scrive quando la parlo, altrimenti l'ultima così, altrimenti l'inglese.",
    unknown: (typed, choices) => `«${typed}» non è una lingua che parlo; scegline una tra ${choices}, per esempio /language it.`,
  },
  quiet: {
    none: "Nessuna fascia di silenzio: ogni messaggio arriva con il suo suono di notifica. Impostala con /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Fascia di silenzio: ${hours} (${zone}): i messaggi inviati in quella fascia arrivano senza suono. Cambiala con /quiet 23:00-06:30 o disattivala con /quiet off.`,
    set: (hours, zone) => `Fascia di silenzio impostata: ${hours} (${zone}). I messaggi inviati in quella fascia arrivano senza suono; nulla viene trattenuto.`,
    quietNow: " Ora è silenzio.",
    off: "Fascia di silenzio disattivata: ogni messaggio arriva con il suo suono di notifica.",
    unreadable: (typed) =>
      `Non sono riuscito a leggere «${typed}» come fascia di silenzio: indica quando inizia e finisce, nel tuo fuso orario. Prova /quiet 22:00-07:00 o /quiet off.`,
  },
};
