/** @module The replies in Portuguese (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Idioma: ${name}, ${chosen ? "escolhido com /language" : "o do seu aplicativo Telegram"}. ` +
      `Mude-o com /language seguido de ${choices} (o idioma de cada mensagem).`,
    set: (name) => `Idioma definido como ${name}.`,
    auto: "O idioma do chat agora segue cada mensagem: o do aplicativo Telegram de quem escreve quando eu o falo, senão o último assim, senão o inglês.",
    unknown: (typed, choices) => `“${typed}” não é um idioma que eu fale; escolha um de ${choices}, por exemplo /language pt.`,
  },
  quiet: {
    none: "Sem horário de silêncio: cada mensagem chega com o seu som de notificação. Defina-o com /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Horário de silêncio: ${hours} (${zone}): as mensagens enviadas nesse horário chegam sem som. Mude-o com /quiet 23:00-06:30 ou desligue-o com /quiet off.`,
    set: (hours, zone) => `Horário de silêncio definido: ${hours} (${zone}). As mensagens enviadas nesse horário chegam sem som; nada fica retido.`,
    quietNow: " Agora é horário de silêncio.",
    off: "Horário de silêncio desligado: cada mensagem chega com o seu som de notificação.",
    unreadable: (typed) =>
      `Não consegui ler “${typed}” como horário de silêncio: diga quando começa e termina, no seu fuso horário. Tente /quiet 22:00-07:00 ou /quiet off.`,
  },
};
