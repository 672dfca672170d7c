/** @module The replies in French (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Langue : ${name}, ${chosen ? "choisie avec /language" : "celle de ton application Telegram"}. ` +
      `Change-la avec /language suivi de ${choices} (la langue de chaque message).`,
    set: (name) => `Langue réglée sur ${name}.`,
    auto: "La langue du chat suit désormais chaque message : celle de l'application Telegram de l'expéditeur quand je la parle, sinon la dernière de ce genre, sinon l'anglais.",
    unknown: (typed, choices) => `« ${typed} » n'est pas une langue que je parle ; choisis parmi ${choices}, par exemple /language fr.`,
  },
  quiet: {
    none: "Pas d'heures calmes : chaque message arrive avec sa sonnerie. Définis-les avec /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Heures calmes : ${hours} (${zone}) : les messages envoyés pendant ce temps arrivent sans son. Change-les avec /quiet 23:00-06:30, ou désactive-les avec /quiet off.`,
    set: (hours, zone) => `Heures calmes définies : ${hours} (${zone}). Les messages envoyés pendant ce temps arrivent sans son ; rien n'est retenu.`,
    quietNow: " C'est calme en ce moment.",
    off: "Heures calmes désactivées : chaque message arrive avec sa sonnerie.",
    unreadable: (typed) =>
      `Je n'ai pas pu lire « ${typed} » comme des heures calmes : indique quand elles commencent et finissent, dans ton fuseau horaire. Essaie /quiet 22:00-07:00 ou /quiet off.`,
  },
};
