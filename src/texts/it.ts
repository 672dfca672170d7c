/** @module The replies in Italian (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

/** A chat time (`09:00` today, else `15 dic 09:00`) after an Italian preposition: `alle 09:00`, `il 15 dic 09:00`, `l'8 dic 09:00`. */
const withArticle = (at: string, hour: string, day: string, elided: string): string =>
  /^\d{1,2}:\d{2}$/.test(at) ? `${hour} ${at}` : /^(8|11)\b/.test(at) ? `${elided}${at}` : `${day} ${at}`;
const il = (at: string) => withArticle(at, "alle", "il", "l'");
const al = (at: string) => withArticle(at, "alle", "al", "all'");
const del = (at: string) => withArticle(at, "delle", "del", "dell'");

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Lingua: ${name}, ${chosen ? "scelta con /language" : "quella della tua app Telegram"}. ` +
      `Cambiala con /language seguito da ${choices} (la lingua di ogni messaggio).`,
    set: (name) => `Lingua impostata su ${name}.`,
    auto:
      "La lingua della chat ora segue ogni messaggio: quella dell'app Telegram di chi scrive quando la " +
      "parlo, altrimenti l'ultima così, altrimenti l'inglese.",
    unknown: (typed, choices) => `«${typed}» non è una lingua che parlo; scegline una tra ${choices}, per esempio /language it.`,
  },
  quiet: {
    none: "Nessuna fascia di silenzio: ogni messaggio arriva con il suo suono di notifica. Impostala con /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Fascia di silenzio: ${hours} (${zone}): i messaggi inviati in quella fascia arrivano senza ` +
      `suono. Cambiala con /quiet 23:00-06:30 o disattivala con /quiet off.`,
    set: (hours, zone) => `Fascia di silenzio impostata: ${hours} (${zone}). I messaggi inviati in quella fascia arrivano senza suono; nulla viene trattenuto.`,
    quietNow: " Ora è silenzio.",
    off: "Fascia di silenzio disattivata: ogni messaggio arriva con il suo suono di notifica.",
    unreadable: (typed) =>
      `Non sono riuscito a leggere «${typed}» come fascia di silenzio: indica quando inizia e finisce, ` +
      `nel tuo fuso orario. Prova /quiet 22:00-07:00 o /quiet off.`,
  },
  /** Come si scrivono date e ore: nomi brevi (la settimana parte dalla domenica), un giorno del mese, quanto manca. */
  dates: {
    weekdays: ["dom", "lun", "mar", "mer", "gio", "ven", "sab"],
    months: ["gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"],
    dayMonth: (day, month, year) => `${day} ${month}${year ? ` ${year}` : ""}`,
    weekdayDay: (weekday, dayMonth) => `${weekday} ${dayMonth}`,
    underAMinute: "tra meno di un minuto",
    inMinutes: (minutes) => `tra ${minutes} min`,
    inHours: (hours, minutes) => (minutes === 0 ? `tra ${hours} h` : `tra ${hours} h ${minutes} min`),
    inDays: (days, hours) => `tra ${days} ${days === 1 ? "giorno" : "giorni"}${hours === 0 ? "" : ` ${hours} h`}`,
  },
  help: {
    title: "Comandi",
    noModel: "Nessun modello configurato: un messaggio come «ricordami domani alle 9 di chiamare la mamma» viene proposto come promemoria.",
    agent: "Tutto il resto che scrivi va all'agente.",
    does: {
      jobs: "elenca le attività programmate della chat",
      remind: "un prompt da inviare una volta",
      every: "un prompt ricorrente",
      edit: "cambia orario, testo o fine di un'attività",
      skip: "salta la prossima esecuzione di un'attività ricorrente",
      run: "esegui subito un'attività",
      pause: "metti in pausa un'attività",
      resume: "riprendi un'attività in pausa",
      cancel: "annulla un'attività",
      hook: "un URL segreto che esegue un'attività quando viene chiamato",
      calendar: "le attività di questa chat nella tua app di calendario",
      model: "mostra o scegli il modello usato dall'agente",
      agenda: "le esecuzioni rimanenti di ogni giorno, all'ora che scegli",
      quiet: "le ore in cui i messaggi arrivano senza suono",
      timezone: "mostra o imposta il fuso orario della chat",
      language: "mostra o imposta la lingua in cui rispondo",
      status: "attività, fuso orario, agente e runner",
      help: "questi comandi",
    },
    menu: {
      remind: "/remind domani alle 9:00 chiamare la mamma, /remind 20m fare stretching",
      every: "/every nei giorni feriali alle 8:30 riassumere la posta",
      edit: "/edit <id> domani 10:00, /edit <id> testo chiamare papà",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      hook: "/hook <id> new, /hook new riassumere ciò che è arrivato",
      calendar: "/calendar, /calendar nuovo, /calendar elimina",
      model: "/model, /model predefinito",
      agenda: "/agenda 8:00, /agenda disattiva",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language en, /language auto",
    },
    examples: {
      remind: (weekAhead) =>
        `/remind 20m fare stretching, /remind domani alle 9:00 chiamare la mamma, /remind ${weekAhead} 14:30 dentista, /remind lunedì alle 9 riunione del team`,
      every:
        '/every giorno alle 8:00 riassumere le notizie, /every nei giorni feriali alle 8:30 controllare la posta, /every 15 minuti fare stretching, /every "0 8 * * 1-5" pianificare la giornata',
      edit: "/edit <id> domani 10:00, /edit <id> testo chiamare papà, /edit <id> fino a marzo, /edit <id> mancata salta; in risposta al messaggio di un'attività: /edit 2h",
      skip: "/skip <id>, oppure /skip in risposta al suo messaggio",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  jobs: {
    none: "Nessuna attività programmata.",
    title: (zone, now) => `**Attività programmate** (${zone}, ora ${now})`,
    once: (at) => `una volta, ${il(at)}`,
    next: (at) => `prossima ${il(at)}`,
    noNext: "nessuna prossima esecuzione",
    onHook: "quando viene chiamato il suo hook",
    hookless: (id) => `solo tramite un hook, e non ne ha: /hook ${id} new`,
    hook: "🔗 hook",
    model: (name) => `modello ${name}`,
    missed: { skip: "se mancata: salta", all: "se mancata: esegui tutte", ask: "se mancata: chiedi" },
    spanMinutes: (n) => `${n} min`,
    spanHours: (n) => `${n} h`,
    spanDays: (n) => (n === 1 ? "1 giorno" : `${n} giorni`),
    nag: (every, times) => `🔁 ogni ${every} finché non è fatto (${times}×)`,
    notices: (spans) => `🔔 ${spans} prima`,
    paused: "in pausa",
    running: "in esecuzione",
    lastRun: "ultima esecuzione",
    runsLeft: (n) => (n === 1 ? "manca 1 esecuzione" : `mancano ${n} esecuzioni`),
    until: (date) => `fino ${al(date)}`,
    mainThread: "chat principale",
    thisTopic: "questo argomento",
    topic: (id) => `argomento ${id}`,
    lastTransient: (exit) => `ultima: errore temporaneo (codice ${exit})`,
    lastOverBudget: "ultima: budget superato",
    lastFailed: (exit, timedOut) =>
      exit !== "" ? `ultima: fallita (codice ${exit}${timedOut ? ", tempo scaduto" : ""})` : timedOut ? "ultima: fallita (tempo scaduto)" : "ultima: fallita",
  },
  job: {
    created: (line) => `Attività creata: ${line}`,
    changed: (line) => `Attività modificata: ${line}`,
    cut: (schedule, text) => `Ho letto «${schedule}» come orario e ${text === null ? "il messaggio a cui hai risposto" : `«${text}»`} come testo.`,
    understood: (at, zone, distance) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times) => `Prossime: ${times}`,
    cancelled: (id, name) => `Attività ${id} (${name}) annullata.`,
    paused: (id, name) => `Attività ${id} (${name}) messa in pausa.`,
    running: (id, name) => `Eseguo ora ${id} (${name}).`,
    resumed: (id, name, next) =>
      next ? `Attività ${id} (${name}) ripresa; prossima esecuzione ${il(next)}.` : `Attività ${id} (${name}) ripresa; non ha una prossima esecuzione.`,
    skippedAt: (at) => `Saltata l'esecuzione ${del(at)}.`,
    skipped: (at, next) => `Saltata l'esecuzione ${del(at)}; ${next ? `prossima ${il(next)}` : "non ce n'è una prossima"}.`,
    usage: (command) => `Uso: /${command} <id> (vedi /jobs).`,
    editUsage:
      "Uso: /edit <id> <quando>, /edit <id> testo <nuovo testo> oppure /edit <id> mancata una|salta|tutte|chiedi (vedi /jobs); in risposta al messaggio di un'attività, /edit <quando>.",
    missedWord: "mancata",
    missedValues: { once: "una", skip: "salta", all: "tutte", ask: "chiedi" },
    missedUsage: (id) =>
      `Cosa fare di un'esecuzione mancata mentre il bot era offline? /edit ${id} mancata una (una sola esecuzione in ritardo, il predefinito), salta (nessuna), tutte (ognuna, al massimo 10) oppure chiedi (un messaggio con Esegui ora e Salta).`,
    remindUsage: (a, b) => `/remind vuole un orario e poi il testo del promemoria. Prova ${a} o ${b}.`,
    everyUsage: (a, b) => `/every vuole una ricorrenza e poi il testo da inviare. Prova ${a} o ${b}.`,
    noText: (phrase, a, b) => `Dopo «${phrase}» serve un testo: cosa devo inviare? Prova ${a} o ${b}.`,
    tooLong: (length, max) =>
      `Il testo è lungo ${length} ${length === 1 ? "carattere" : "caratteri"}; un'attività ne contiene ` +
      `al massimo ${max}. Accorcialo e invia di nuovo il comando.`,
    noJob: (id) => `Nessuna attività ${id} in questa chat.`,
    gone: (id) => `L'attività creata da questo messaggio (${id}) non c'è più: è stata eseguita o annullata. Invia di nuovo il comando per crearne una nuova.`,
    onceNoEnd: (id) => `${id} viene eseguita una volta sola, quindi non ha una fine da cambiare; per spostarla, invia /edit ${id} <quando>.`,
    notPartOfTime: (rest, id) =>
      `«${rest}» non fa parte di un orario. Per cambiare il testo dell'attività, invia /edit ${id} testo ${rest}; per cambiarne l'orario, invia solo l'orario.`,
    zoneNotice: (zone) => `Qui gli orari sono nel fuso ${zone}. Dove ti trovi? Invia /timezone e la tua città, per esempio /timezone Berlin.`,
  },
  hook: {
    newWord: "nuovo",
    offWord: "elimina",
    usage:
      "Uso: /hook <id> dice se un'attività ha un hook, /hook <id> new lo crea o lo sostituisce, /hook <id> off lo revoca, /hook new <testo> crea un'attività che solo il suo hook esegue.",
    has: (id) => `L'attività ${id} ha un hook. /hook ${id} new lo sostituisce (il vecchio indirizzo smette di funzionare); /hook ${id} off lo revoca.`,
    none: (id) => `L'attività ${id} non ha un hook. /hook ${id} new ne crea uno: un URL segreto che esegue l'attività quando qualcosa lo chiama.`,
    made: (id, url, email) =>
      `L'hook dell'attività ${id}, mostrato una volta sola (chi ce l'ha può eseguire l'attività, quindi tienilo segreto):\n${url}${email ? `\nEmail: ${email}` : ""}\nInviagli JSON o testo con POST: il corpo è l'input dell'esecuzione.`,
    revoked: (id) => `L'hook dell'attività ${id} è stato revocato: il suo indirizzo ora non porta a nulla.`,
    noneToRevoke: (id) => `L'attività ${id} non ha un hook.`,
    sentPrivately: "Ti ho inviato l'indirizzo dell'hook in un messaggio privato.",
    startFirst:
      "Non posso ancora scriverti in privato: apri una chat con me e premi Avvia, poi invia di nuovo il comando; oppure crea l'hook nella pagina Scheduler o nella Mini App.",
  },
  calendar: {
    usage:
      "Uso: /calendar mostra il feed del calendario di questa chat (creato la prima volta), /calendar nuovo ne sostituisce l'indirizzo, /calendar elimina lo disattiva.",
    has: "Questa chat ha un feed del calendario. /calendar nuovo ne sostituisce l'indirizzo (il vecchio smette di funzionare); /calendar elimina lo disattiva.",
    made: (url) =>
      `Il feed del calendario di questa chat, mostrato una volta sola (chi ha l'indirizzo vede le attività, quindi tienilo segreto):\n${url}\n` +
      "Abbonati: Google Calendar → Altri calendari → Da URL; Calendario di Apple → File → «New Calendar Subscription»; Outlook → Aggiungi calendario → Sottoscrivi dal Web.",
    revoked: "Il feed del calendario è disattivato: il suo indirizzo ora non porta a nulla.",
    noneToRevoke: "Questa chat non ha un feed del calendario.",
    sentPrivately: "Ti ho inviato l'indirizzo del calendario in un messaggio privato.",
    startFirst:
      "Non posso ancora scriverti in privato: apri una chat con me e premi Avvia, poi invia di nuovo il comando; oppure crea il feed nella pagina Scheduler o nella Mini App.",
  },
  buttons: {
    done: "Fatto",
    in10min: "10 min",
    in1h: "1 h",
    tomorrow9: "Domani 9:00",
    snooze1h: "Rimanda di 1 h",
    skipNext: "Salta la prossima",
    pause: "Pausa",
    runNow: "Esegui ora",
    cancel: "Annulla",
    create: "Crea",
    openScheduler: "Apri la pianificazione",
    doneAnswer: "Fatto.",
    doneLine: "✅ Fatto",
    snoozedAnswer: (until) => `Rimandato ${al(until)}.`,
    snoozedLine: (until) => `⏰ Rimandato ${al(until)}`,
    skippedLine: (at) => `⏭ Saltata l'esecuzione ${del(at)}`,
    pausedLine: "⏸ In pausa",
    skip: "Salta",
    missedRunLine: "▶️ Eseguita ora",
    missedSkippedLine: "⏭ Saltata",
    missedSkippedAnswer: (n) => (n === 1 ? "Esecuzione mancata saltata." : `${n} esecuzioni mancate saltate.`),
    skipThisOne: "Salta questo",
    sentAgainLine: "🔁 Rinviato qui sotto",
    answered: "Hai già risposto a questo messaggio.",
    gone: "Questo messaggio è troppo vecchio per agire; vedi /jobs.",
    invalid: "Questo pulsante non è più valido.",
  },
  missed: {
    askMany: (name, id, n, times) => `⏰ **${name}** (\`${id}\`) ha saltato ${n} esecuzioni mentre il bot era offline: ${times}. La eseguo ora?`,
    askOne: (name, id, at) => `⏰ **${name}** (\`${id}\`) era prevista ${il(at)} mentre il bot era offline. La eseguo ora?`,
    more: (n) => (n === 1 ? "un altro" : `altri ${n}`),
    dropped: (name, id, at) => `Saltata **${name}** (\`${id}\`): era prevista ${il(at)} mentre il bot era offline.`,
  },
  model: {
    shown: (name, isDefault, choices) =>
      `Modello: ${name}${isDefault ? " (il predefinito del bot)" : ""}. Scelte possibili: ${choices}. Cambialo con /model <nome>; /model predefinito torna a quello del bot.`,
    only: (name) => `Modello: ${name}, l'unico che questo bot offre (il suo proprietario può aggiungerne altri con LLM_MODELS).`,
    set: (name) => `Modello: ${name}. Le attività con un modello proprio mantengono il loro.`,
    reset: (name) => `Modello: ${name} (il predefinito del bot).`,
    none: "Questo bot non usa nessun modello, quindi non c'è nulla da scegliere (il suo proprietario lo imposta con LLM_MODEL).",
    unknown: (typed, choices) => `«${typed}» non è uno dei modelli di questo bot; scegli tra ${choices}.`,
    defaultWord: "predefinito",
    dropped: (wanted, used) => `(Il modello ${wanted} non è più disponibile, quindi questa esecuzione ha usato ${used}.)`,
  },
  copy: {
    kinds: {
      photo: "una foto",
      video: "un video",
      animation: "una GIF",
      voice: "un messaggio vocale",
      audio: "un file audio",
      document: "un file",
      sticker: "uno sticker",
      video_note: "un videomessaggio",
      location: "una posizione",
      venue: "un luogo",
      contact: "un contatto",
      poll: "un sondaggio",
      dice: "un dado",
      story: "una storia",
      forward_origin: "un messaggio inoltrato",
    },
    refused: "Non posso riproporti quel messaggio (Telegram non permette ai bot di copiarlo): dai invece al promemoria un testo suo.",
    entry: (kind, messageId) => `📎 ${kind} (messaggio ${messageId})`,
    gone: "📎 Il messaggio di questo promemoria non esiste più.",
  },
  nag: {
    mark: (n) => `🔁 **${n}° promemoria**`,
  },
  before: {
    notice: (ahead, name, at) => `${ahead.charAt(0).toUpperCase()}${ahead.slice(1)}: **${name}** (${at})`,
  },
  agenda: {
    title: (day, zone) => `**Oggi** (${day}, ${zone})`,
    more: (n) => `e ${n === 1 ? "un'altra" : `altre ${n}`}: vedi /jobs`,
    none: "Nessuna agenda giornaliera. /agenda 8:00 ti invia ogni giorno alle 8:00 le esecuzioni rimanenti della giornata.",
    show: (at, zone) =>
      `Agenda giornaliera alle ${at} (${zone}): le esecuzioni rimanenti della giornata, quando ce ne sono. Disattivala con /agenda disattiva.`,
    set: (at, zone, next) => `Agenda giornaliera alle ${at} (${zone}), nei giorni con esecuzioni; il primo invio ${il(next)}.`,
    off: "Agenda giornaliera disattivata.",
    unreadable: (typed) => `Non sono riuscito a leggere «${typed}» come un orario. Prova /agenda 8:00 o /agenda disattiva.`,
    offWord: "disattiva",
  },
  offer: {
    found: (text) => `Nessun modello configurato, ma questo sembra un promemoria: «${text}»`,
    ask: "Lo creo?",
    declined: "OK, niente promemoria.",
    created: (id) => `Promemoria ${id} creato.`,
    passedShort: "Quell'ora è già passata; non ho creato nulla.",
    passed: (at, zone, a, b) => `Quell'ora è già passata (${at}, ${zone}); non ho creato nulla. Prova ${a} o ${b}.`,
  },
  zone: {
    show: (zone, offset, isDefault) =>
      `Fuso orario: ${zone} (${offset}${isDefault ? ", predefinito" : ""}). Cambialo con /timezone <nome IANA>, per esempio /timezone America/New_York.`,
    set: (zone, offset, isDefault, now) => `Fuso orario impostato su ${zone} (${offset}${isDefault ? ", predefinito" : ""}). Ora: ${now}.`,
    recurringFollow: (n) => `${n} ${n === 1 ? "attività ricorrente ora segue" : "attività ricorrenti ora seguono"} questo fuso`,
    oneOffsKeep: (n, times) =>
      n === 1 ? `1 attività singola mantiene il suo orario (qui ora: ${times})` : `${n} attività singole mantengono i loro orari (qui ora: ${times})`,
    more: (n) => (n === 1 ? "un altro" : `altri ${n}`),
    and: (items) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]}`),
    setShort: (zone) => `Fuso orario impostato su ${zone}.`,
    unknown: (typed) => `Non conosco nessun fuso orario o luogo chiamato «${typed}». Prova /timezone Berlin o /timezone America/New_York.`,
    offset: (typed) => `«${typed}» è uno scostamento da UTC; questi fusi lo usano ora. Tocca il tuo: un fuso segue l'ora legale, uno scostamento fisso no.`,
    fixed: (offset) => `${offset}, senza ora legale`,
    several: (typed) => `«${typed}» ha più di un fuso orario. Tocca il tuo, oppure invia /timezone con la tua città.`,
  },
  status: {
    jobs: "Attività",
    zone: "Fuso orario",
    default: "predefinito",
    agent: "Agente",
    runner: "Runner",
    notConfigured: "non configurato",
    blocked: "**Consegna:** bloccata fino a questo messaggio (il bot non riusciva a raggiungere questa chat)",
  },
  problems: {
    runsOnce: (id) => `${id} viene eseguita una volta sola; piuttosto annullala o modificala.`,
    hookOnly: (id) => `${id} viene eseguita solo quando viene chiamato il suo hook, quindi non ha una prossima esecuzione da saltare.`,
    paused: (id) => `L'attività ${id} è in pausa.`,
    nothingToSkip: (id, paused) =>
      paused ? `${id} è in pausa, quindi non ha una prossima esecuzione da saltare; prima riprendila.` : `${id} non ha una prossima esecuzione da saltare.`,
    lastRun: (id) => `La prossima esecuzione di ${id} è l'ultima prima della fine: piuttosto annulla l'attività, oppure prima spostane la fine.`,
    noRunsLeft: (id, name, until) =>
      `L'attività ${id} (${name}) non ha più esecuzioni in programma: ${until ? `la prossima cadrebbe dopo la sua fine (fino ${al(until)})` : "l'ultima esecuzione prevista è già partita"}. Dalle una fine più tarda o più esecuzioni con /edit, oppure annullala.`,
    stillRunning: (id) => `L'attività ${id} è ancora in esecuzione.`,
    tooManyJobs: (limit) => `Questa chat ha già ${limit} attività (il massimo); prima annullane una.`,
    adminsOnly: "Solo gli amministratori del gruppo possono modificarne le attività.",
    rightsUnknown: "Non sono riuscito a chiedere a Telegram chi sono gli amministratori di questo gruppo, quindi non è cambiato nulla; riprova tra un minuto.",
  },
  topicGone: (jobs, n) =>
    `ℹ️ L'argomento a cui era destinato questo messaggio non esiste più, quindi arriva qui.${n === 0 ? "" : ` D'ora in poi ${n === 1 ? `l'attività ${jobs} pubblica` : `le attività ${jobs} pubblicano`} qui.`}`,
  nonText: "Posso leggere solo i messaggi di testo.",
  agent: {
    noModel:
      "Nessun modello è configurato, quindi posso solo eseguire le tue attività pianificate. Invia " +
      "/help per i comandi. Per un promemoria: /remind domani alle 9:00 chiamare la mamma",
    late: (at) => `Era previsto: ${at}; il bot era offline.`,
    lateMany: (n, at) => `Mentre il bot era offline sono saltate ${n} esecuzioni; questa è l'ultima (prevista ${il(at)}).`,
  },
};
