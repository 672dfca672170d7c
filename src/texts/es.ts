/** @module The replies in Spanish (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

/** `08:00` (today) is said with `las`, `28 sept 08:00` with `el`: `hasta las 08:00`, `hasta el 28 sept 08:00`. */
const isClock = (at: string) => /^\d{1,2}:\d{2}$/.test(at);
const theTime = (at: string) => (isClock(at) ? `las ${at}` : `el ${at}`);
/** `de las 08:00`, `del 28 sept 08:00`. */
const ofTime = (at: string) => (isClock(at) ? `de las ${at}` : `del ${at}`);

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Idioma: ${name}, ${chosen ? "elegido con /language" : "el de tu aplicación de Telegram"}. ` +
      `Cámbialo con /language seguido de ${choices} (el idioma de cada mensaje).`,
    set: (name) => `Idioma cambiado a ${name}.`,
    auto:
      "El idioma del chat ahora sigue a cada mensaje: el de la aplicación de Telegram de quien escribe " +
      "cuando lo hablo, si no el último así, si no el inglés.",
    unknown: (typed, choices) => `«${typed}» no es un idioma que hable; elige uno de ${choices}, por ejemplo /language es.`,
  },
  quiet: {
    none: "Sin horas de silencio: cada mensaje llega con su sonido de notificación. Configúralas con /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Horas de silencio: ${hours} (${zone}): los mensajes enviados entonces llegan sin sonido. ` +
      `Cámbialas con /quiet 23:00-06:30 o desactívalas con /quiet off.`,
    set: (hours, zone) => `Horas de silencio configuradas: ${hours} (${zone}). Los mensajes enviados entonces llegan sin sonido; no se retiene nada.`,
    quietNow: " Ahora es hora de silencio.",
    off: "Horas de silencio desactivadas: cada mensaje llega con su sonido de notificación.",
    unreadable: (typed) =>
      `No pude leer «${typed}» como horas de silencio: indica cuándo empiezan y terminan, en tu zona horaria. Prueba /quiet 22:00-07:00 o /quiet off.`,
  },
  dates: {
    weekdays: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"],
    months: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"],
    dayMonth: (day, month, year) => `${day} ${month}${year ? ` ${year}` : ""}`,
    weekdayDay: (weekday, dayMonth) => `${weekday} ${dayMonth}`,
    underAMinute: "en menos de un minuto",
    inMinutes: (minutes) => `en ${minutes} min`,
    inHours: (hours, minutes) => (minutes === 0 ? `en ${hours} h` : `en ${hours} h ${minutes} min`),
    inDays: (days, hours) => `en ${days} ${days === 1 ? "día" : "días"}${hours === 0 ? "" : ` ${hours} h`}`,
  },
  help: {
    title: "Comandos",
    noModel: "No hay ningún modelo configurado: un mensaje como «recuérdame mañana a las 9 llamar a mamá» se ofrece como recordatorio.",
    agent: "Todo lo demás que escribas va al agente.",
    does: {
      jobs: "lista las tareas programadas de este chat",
      remind: "una tarea puntual",
      every: "una tarea periódica",
      edit: "cambia la hora, el texto o el final de una tarea",
      skip: "omite la próxima ejecución de una tarea periódica",
      run: "ejecuta una tarea ahora",
      pause: "pausa una tarea",
      resume: "reanuda una tarea en pausa",
      cancel: "cancela una tarea",
      hook: "una URL secreta que ejecuta una tarea cuando se la llama",
      calendar: "las tareas de este chat en tu aplicación de calendario",
      model: "muestra o elige el modelo que usa el agente",
      agenda: "las ejecuciones que quedan cada día, a la hora que elijas",
      quiet: "horas en que los mensajes llegan sin sonido",
      timezone: "muestra o cambia la zona horaria de este chat",
      language: "muestra o cambia el idioma en que respondo",
      status: "tareas, zona horaria, agente y ejecutor",
      help: "estos comandos",
    },
    menu: {
      remind: "/remind mañana a las 9:00 llamar a mamá, /remind 20m estirarme",
      every: "/every entre semana a las 8:30 resumir mi correo",
      edit: "/edit <id> mañana 10:00, /edit <id> texto llamar a papá",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      hook: "/hook <id> new, /hook new resumir lo que llegó",
      calendar: "/calendar, /calendar nuevo, /calendar borrar",
      model: "/model, /model predeterminado",
      agenda: "/agenda 8:00, /agenda desactivar",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language de, /language auto",
    },
    examples: {
      remind: (weekAhead) =>
        `/remind 20m estirarme, /remind mañana a las 9:00 llamar a mamá, /remind ${weekAhead} 14:30 dentista, /remind el lunes a las 9:00 reunión de equipo`,
      every:
        '/every todos los días a las 8:00 resumir las noticias, /every entre semana a las 8:30 revisar mi correo, /every 15 minutos estirarme, /every "0 8 * * 1-5" planificar el día',
      edit: "/edit <id> mañana 10:00, /edit <id> texto llamar a papá, /edit <id> hasta marzo, /edit <id> perdida omitir; como respuesta al mensaje de una tarea: /edit 2h",
      skip: "/skip <id>, o /skip como respuesta a su mensaje",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  jobs: {
    none: "No hay tareas programadas.",
    title: (zone, now) => `**Tareas programadas** (${zone}, ahora ${now})`,
    once: (at) => `una vez: ${at}`,
    next: (at) => `próxima: ${at}`,
    noNext: "sin próxima ejecución",
    onHook: "cuando se llama a su hook",
    hookless: (id) => `solo mediante un hook, y no tiene ninguno: /hook ${id} new`,
    hook: "🔗 hook",
    model: (name) => `modelo ${name}`,
    missed: { skip: "si se pierde: omitir", all: "si se pierde: ejecutar todas", ask: "si se pierde: preguntar" },
    spanMinutes: (n) => `${n} min`,
    spanHours: (n) => `${n} h`,
    spanDays: (n) => (n === 1 ? "1 día" : `${n} días`),
    nag: (every, times) => `🔁 cada ${every} hasta que esté hecho (${times}×)`,
    notices: (spans) => `🔔 ${spans} antes`,
    paused: "en pausa",
    running: "en ejecución",
    lastRun: "última ejecución",
    runsLeft: (n) => (n === 1 ? "queda 1 ejecución" : `quedan ${n} ejecuciones`),
    until: (date) => `hasta el ${date}`,
    mainThread: "hilo principal",
    thisTopic: "este tema",
    topic: (id) => `tema ${id}`,
    lastTransient: (exit) => `última: fallo transitorio (código ${exit})`,
    lastOverBudget: "última: presupuesto superado",
    lastFailed: (exit, timedOut) =>
      exit !== "" ? `última: falló (código ${exit}${timedOut ? ", tiempo agotado" : ""})` : timedOut ? "última: falló (tiempo agotado)" : "última: falló",
  },
  job: {
    created: (line) => `Tarea creada: ${line}`,
    changed: (line) => `Tarea modificada: ${line}`,
    cut: (schedule, text) => `Leí «${schedule}» como el horario y ${text === null ? "el mensaje al que respondiste" : `«${text}»`} como el texto.`,
    understood: (at, zone, distance) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times) => `Próximas: ${times}`,
    cancelled: (id, name) => `Tarea ${id} (${name}) cancelada.`,
    paused: (id, name) => `Tarea ${id} (${name}) en pausa.`,
    running: (id, name) => `Ejecutando ${id} (${name}) ahora.`,
    resumed: (id, name, next) => (next ? `Tarea ${id} (${name}) reanudada; próxima: ${next}.` : `Tarea ${id} (${name}) reanudada; no tiene próxima ejecución.`),
    skippedAt: (at) => `Omitida la ejecución ${ofTime(at)}.`,
    skipped: (at, next) => `Omitida la ejecución ${ofTime(at)}; ${next ? `próxima: ${next}` : "no tiene próxima ejecución"}.`,
    usage: (command) => `Uso: /${command} <id> (consulta /jobs).`,
    editUsage:
      "Uso: /edit <id> <cuándo>, /edit <id> texto <texto nuevo> o /edit <id> perdida una|omitir|todas|preguntar (consulta /jobs); como respuesta al mensaje de una tarea, /edit <cuándo>.",
    missedWord: "perdida",
    missedValues: { once: "una", skip: "omitir", all: "todas", ask: "preguntar" },
    missedUsage: (id) =>
      `¿Qué hago con una ejecución perdida mientras el bot estaba desconectado? /edit ${id} perdida una (una ejecución con retraso, lo predeterminado), omitir (ninguna), todas (cada una, como máximo 10) o preguntar (un mensaje con Ejecutar ahora y Omitir).`,
    remindUsage: (a, b) => `/remind necesita una hora y después el texto del recordatorio. Prueba ${a} o ${b}.`,
    everyUsage: (a, b) => `/every necesita una frecuencia y después el texto que enviar. Prueba ${a} o ${b}.`,
    noText: (phrase, a, b) => `«${phrase}» necesita un texto detrás: ¿qué envío entonces? Prueba ${a} o ${b}.`,
    tooLong: (length, max) => `El texto tiene ${length} caracteres; una tarea admite como máximo ${max}. Acórtalo y vuelve a enviar el comando.`,
    noJob: (id) => `No hay ninguna tarea ${id} en este chat.`,
    gone: (id) => `La tarea que creó este mensaje (${id}) ya no existe: se ejecutó o se canceló. Vuelve a enviar el comando para crear otra.`,
    onceNoEnd: (id) => `${id} se ejecuta una sola vez, así que no tiene final que cambiar; para moverla, envía /edit ${id} <cuándo>.`,
    notPartOfTime: (rest, id) =>
      `«${rest}» no forma parte de una hora. Para cambiar el texto de la tarea, envía /edit ${id} texto ${rest}; para cambiar su hora, envía solo la hora.`,
    zoneNotice: (zone) => `Aquí las horas van en ${zone}. ¿Dónde estás? Envía /timezone y tu ciudad, p. ej. /timezone Berlin.`,
  },
  hook: {
    newWord: "nuevo",
    offWord: "borrar",
    usage:
      "Uso: /hook <id> dice si una tarea tiene un hook, /hook <id> new lo crea o lo reemplaza, /hook <id> off lo revoca, /hook new <texto> crea una tarea que solo ejecuta su hook.",
    has: (id) => `La tarea ${id} tiene un hook. /hook ${id} new lo reemplaza (la dirección anterior deja de funcionar); /hook ${id} off lo revoca.`,
    none: (id) => `La tarea ${id} no tiene hook. /hook ${id} new crea uno: una URL secreta que ejecuta la tarea cuando algo la llama.`,
    made: (id, url, email) =>
      `El hook de la tarea ${id}, que se muestra solo esta vez (quien lo tenga puede ejecutar la tarea, así que guárdalo en secreto):\n${url}${email ? `\nCorreo: ${email}` : ""}\nEnvíale JSON o texto por POST: el cuerpo es la entrada de la ejecución.`,
    revoked: (id) => `El hook de la tarea ${id} está revocado: su dirección ya no lleva a nada.`,
    noneToRevoke: (id) => `La tarea ${id} no tiene hook.`,
    sentPrivately: "Te envié la dirección del hook por mensaje privado.",
    startFirst:
      "Todavía no puedo escribirte en privado: abre un chat conmigo y pulsa Iniciar, luego vuelve a enviar el comando; o crea el hook en la página Scheduler o en la Mini App.",
  },
  calendar: {
    usage:
      "Uso: /calendar muestra el feed de calendario de este chat (se crea la primera vez), /calendar nuevo reemplaza su dirección, /calendar borrar lo desactiva.",
    has: "Este chat tiene un feed de calendario. /calendar nuevo reemplaza su dirección (la anterior deja de funcionar); /calendar borrar lo desactiva.",
    made: (url) =>
      `El feed de calendario de este chat, que se muestra solo esta vez (quien tenga la dirección ve las tareas, así que guárdala en secreto):\n${url}\n` +
      "Suscríbete: Google Calendar → Otros calendarios → Desde URL; Calendario de Apple → Archivo → Nueva suscripción a calendario; Outlook → Agregar calendario → Suscribirse desde la web.",
    revoked: "El feed de calendario está desactivado: su dirección ya no lleva a nada.",
    noneToRevoke: "Este chat no tiene feed de calendario.",
    sentPrivately: "Te envié la dirección del calendario por mensaje privado.",
    startFirst:
      "Todavía no puedo escribirte en privado: abre un chat conmigo y pulsa Iniciar, luego vuelve a enviar el comando; o crea el feed en la página Scheduler o en la Mini App.",
  },
  buttons: {
    done: "Hecho",
    in10min: "10 min",
    in1h: "1 h",
    tomorrow9: "Mañana 9:00",
    snooze1h: "Posponer 1 h",
    skipNext: "Omitir la próxima",
    pause: "Pausar",
    runNow: "Ejecutar ahora",
    cancel: "Cancelar",
    create: "Crear",
    openScheduler: "Abrir el programador",
    doneAnswer: "Hecho.",
    doneLine: "✅ Hecho",
    snoozedAnswer: (until) => `Pospuesto hasta ${theTime(until)}.`,
    snoozedLine: (until) => `⏰ Pospuesto hasta ${theTime(until)}`,
    skippedLine: (at) => `⏭ Omitida la ejecución ${ofTime(at)}`,
    pausedLine: "⏸ En pausa",
    skip: "Omitir",
    missedRunLine: "▶️ Ejecutada ahora",
    missedSkippedLine: "⏭ Omitida",
    missedSkippedAnswer: (n) => (n === 1 ? "Ejecución perdida omitida." : `${n} ejecuciones perdidas omitidas.`),
    skipThisOne: "Omitir este",
    sentAgainLine: "🔁 Enviado de nuevo abajo",
    answered: "Esto ya se respondió.",
    gone: "Este mensaje es demasiado antiguo para actuar sobre él; consulta /jobs.",
    invalid: "Este botón ya no es válido.",
  },
  missed: {
    askMany: (name, id, n, times) => `⏰ **${name}** (\`${id}\`) no se ejecutó ${n} veces mientras el bot estaba desconectado: ${times}. ¿La ejecuto ahora?`,
    askOne: (name, id, at) => `⏰ **${name}** (\`${id}\`) estaba prevista para ${theTime(at)} mientras el bot estaba desconectado. ¿La ejecuto ahora?`,
    more: (n) => `${n} más`,
    dropped: (name, id, at) => `Omitida **${name}** (\`${id}\`): estaba prevista para ${theTime(at)} mientras el bot estaba desconectado.`,
  },
  model: {
    shown: (name, isDefault, choices) =>
      `Modelo: ${name}${isDefault ? " (el predeterminado del bot)" : ""}. Opciones: ${choices}. Cámbialo con /model <nombre>; /model predeterminado vuelve al del bot.`,
    only: (name) => `Modelo: ${name}, el único que ofrece este bot (su dueño puede añadir más con LLM_MODELS).`,
    set: (name) => `Modelo: ${name}. Las tareas con un modelo propio conservan el suyo.`,
    reset: (name) => `Modelo: ${name} (el predeterminado del bot).`,
    none: "Este bot no usa ningún modelo, así que no hay ninguno que elegir (su dueño lo configura con LLM_MODEL).",
    unknown: (typed, choices) => `«${typed}» no es uno de los modelos de este bot; elige entre ${choices}.`,
    defaultWord: "predeterminado",
    dropped: (wanted, used) => `(El modelo ${wanted} ya no está disponible, así que esto se ejecutó con ${used}.)`,
  },
  copy: {
    kinds: {
      photo: "una foto",
      video: "un vídeo",
      animation: "un GIF",
      voice: "un mensaje de voz",
      audio: "un archivo de audio",
      document: "un archivo",
      sticker: "un sticker",
      video_note: "un videomensaje",
      location: "una ubicación",
      venue: "un lugar",
      contact: "un contacto",
      poll: "una encuesta",
      dice: "un dado",
      story: "una historia",
      forward_origin: "un mensaje reenviado",
    },
    refused: "No puedo traer de vuelta ese mensaje (Telegram no deja que los bots lo copien): mejor dale al recordatorio un texto propio.",
    entry: (kind, messageId) => `📎 ${kind} (mensaje ${messageId})`,
    gone: "📎 El mensaje de este recordatorio ya no existe.",
  },
  nag: {
    mark: (n) => `🔁 **${n}.º recordatorio**`,
  },
  before: {
    notice: (ahead, name, at) => `${ahead.charAt(0).toUpperCase()}${ahead.slice(1)}: **${name}** (${at})`,
  },
  agenda: {
    title: (day, zone) => `**Hoy** (${day}, ${zone})`,
    more: (n) => `y ${n} más: consulta /jobs`,
    none: "Sin agenda diaria. /agenda 8:00 te envía cada día a las 8:00 las ejecuciones que quedan en el día.",
    show: (at, zone) => `Agenda diaria a las ${at} (${zone}): las ejecuciones que quedan en el día, si hay alguna. Desactívala con /agenda desactivar.`,
    set: (at, zone, next) => `Agenda diaria a las ${at} (${zone}), los días con ejecuciones; el primer envío, ${theTime(next)}.`,
    off: "Agenda diaria desactivada.",
    unreadable: (typed) => `No pude leer «${typed}» como una hora del día. Prueba /agenda 8:00 o /agenda desactivar.`,
    offWord: "desactivar",
  },
  offer: {
    found: (text) => `No hay ningún modelo configurado, pero esto parece un recordatorio: «${text}»`,
    ask: "¿Lo creo?",
    declined: "Vale, sin recordatorio.",
    created: (id) => `Recordatorio ${id} creado.`,
    passedShort: "Esa hora ya pasó; no se creó nada.",
    passed: (at, zone, a, b) => `Esa hora ya pasó (${at} en ${zone}); no se creó nada. Prueba ${a} o ${b}.`,
  },
  zone: {
    show: (zone, offset, isDefault) =>
      `Zona horaria: ${zone} (${offset}${isDefault ? ", predeterminada" : ""}). Cámbiala con /timezone <nombre IANA>, p. ej. /timezone America/New_York.`,
    set: (zone, offset, isDefault, now) => `Zona horaria cambiada a ${zone} (${offset}${isDefault ? ", predeterminada" : ""}). Ahora: ${now}.`,
    recurringFollow: (n) => (n === 1 ? "1 tarea periódica usa ahora esta zona" : `${n} tareas periódicas usan ahora esta zona`),
    oneOffsKeep: (n, times) =>
      n === 1 ? `1 tarea puntual conserva su hora (aquí, ahora ${times})` : `${n} tareas puntuales conservan sus horas (aquí, ahora ${times})`,
    more: (n) => `${n} más`,
    and: (items) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} y ${items[items.length - 1]}`),
    setShort: (zone) => `Zona horaria cambiada a ${zone}.`,
    unknown: (typed) => `No conozco ninguna zona horaria ni lugar llamado «${typed}». Prueba /timezone Berlin o /timezone America/New_York.`,
    offset: (typed) => `«${typed}» es un desfase horario; estas zonas lo tienen ahora. Toca la tuya: una zona cambia al horario de verano, un desfase fijo no.`,
    fixed: (offset) => `${offset}, sin horario de verano`,
    several: (typed) => `«${typed}» tiene más de una zona horaria. Toca la tuya o envía /timezone con tu ciudad.`,
  },
  status: {
    jobs: "Tareas",
    zone: "Zona horaria",
    default: "predeterminada",
    agent: "Agente",
    runner: "Ejecutor",
    notConfigured: "sin configurar",
    blocked: "**Entrega:** estuvo bloqueada hasta este mensaje (el bot no podía llegar a este chat)",
  },
  problems: {
    runsOnce: (id) => `${id} se ejecuta una sola vez; mejor cancélala o edítala.`,
    hookOnly: (id) => `${id} solo se ejecuta cuando se llama a su hook, así que no tiene próxima ejecución que omitir.`,
    paused: (id) => `La tarea ${id} está en pausa.`,
    nothingToSkip: (id, paused) =>
      paused ? `${id} está en pausa, así que no tiene próxima ejecución que omitir; reanúdala primero.` : `${id} no tiene próxima ejecución que omitir.`,
    lastRun: (id) => `La próxima ejecución de ${id} es la última antes de que termine; mejor cancélala, o cambia antes su final.`,
    noRunsLeft: (id, name, until) =>
      `La tarea ${id} (${name}) no tiene más ejecuciones programadas: ${until ? `la próxima sería después de su final (hasta ${theTime(until)})` : "su última ejecución programada ya empezó"}. Ponle un final posterior o más ejecuciones con /edit, o cancélala.`,
    stillRunning: (id) => `La tarea ${id} todavía se está ejecutando.`,
    tooManyJobs: (limit) => `Este chat ya tiene ${limit} tareas (el máximo); cancela una primero.`,
    adminsOnly: "Solo los administradores del grupo pueden cambiar sus tareas.",
    rightsUnknown: "No pude preguntar a Telegram quiénes son los administradores de este grupo, así que no cambió nada; inténtalo de nuevo en un minuto.",
  },
  topicGone: (jobs, n) =>
    `ℹ️ Esto iba dirigido a un tema que ya no existe, así que llega aquí.${n === 0 ? "" : ` A partir de ahora, ${n === 1 ? `la tarea ${jobs} publica` : `las tareas ${jobs} publican`} aquí.`}`,
  nonText: "Solo puedo leer mensajes de texto.",
  agent: {
    noModel:
      "No hay ningún modelo configurado, así que solo puedo ejecutar tus tareas programadas. Envía " +
      "/help para ver los comandos. Para un recordatorio: /remind mañana a las 9:00 llamar a mamá",
    late: (at) => `Estaba previsto: ${at}; el bot estaba desconectado.`,
    lateMany: (n, at) => `Se perdieron ${n} ejecuciones mientras el bot estaba desconectado; esta es la última (prevista para ${theTime(at)}).`,
  },
};
