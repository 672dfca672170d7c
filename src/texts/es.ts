/** @module The replies in Spanish (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Idioma: ${name}, ${chosen ? "elegido con /language" : "el de tu aplicación de Telegram"}. ` +
      `Cámbialo con /language seguido de ${choices} (el idioma de cada mensaje).`,
    set: (name) => `Idioma cambiado a ${name}.`,
    auto: "El idioma del chat ahora sigue a cada mensaje: el de la aplicación de Telegram de quien escribe cuando lo hablo, si no el último así, si no el inglés.",
    unknown: (typed, choices) => `«${typed}» no es un idioma que hable; elige uno de ${choices}, por ejemplo /language es.`,
  },
  quiet: {
    none: "Sin horas de silencio: cada mensaje llega con su sonido de notificación. Configúralas con /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Horas de silencio: ${hours} (${zone}): los mensajes enviados entonces llegan sin sonido. Cámbialas con /quiet 23:00-06:30 o desactívalas con /quiet off.`,
    set: (hours, zone) => `Horas de silencio configuradas: ${hours} (${zone}). Los mensajes enviados entonces llegan sin sonido; no se retiene nada.`,
    quietNow: " Ahora es hora de silencio.",
    off: "Horas de silencio desactivadas: cada mensaje llega con su sonido de notificación.",
    unreadable: (typed) =>
      `No pude leer «${typed}» como horas de silencio: indica cuándo empiezan y terminan, en tu zona horaria. Prueba /quiet 22:00-07:00 o /quiet off.`,
  },
};
