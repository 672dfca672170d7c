/** @module The replies in German (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Sprache: ${name}, ${chosen ? "mit /language gewählt" : "aus der Sprache deiner Telegram-App"}. ` +
      `Ändere sie mit /language und einem von ${choices} (die Sprache jeder Nachricht).`,
    set: (name) => `Sprache auf ${name} gestellt.`,
    auto:
      "Die Sprache des Chats folgt jetzt jeder Nachricht: der Sprache der Telegram-App des Absenders, " +
      "wenn ich sie spreche, sonst der letzten solchen, sonst Englisch.",
    unknown: (typed, choices) => `„${typed}“ ist keine Sprache, die ich spreche; wähle eine von ${choices}, etwa /language de.`,
  },
  quiet: {
    none: "Keine Ruhezeiten: jede Nachricht kommt mit ihrem Benachrichtigungston. Lege sie fest mit /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Ruhezeiten: ${hours} (${zone}): Nachrichten, die dann gesendet werden, kommen ohne Ton. Ändere ` +
      `sie mit /quiet 23:00-06:30 oder schalte sie aus mit /quiet off.`,
    set: (hours, zone) => `Ruhezeiten festgelegt: ${hours} (${zone}). Nachrichten, die dann gesendet werden, kommen ohne Ton; nichts wird zurückgehalten.`,
    quietNow: " Jetzt ist Ruhezeit.",
    off: "Ruhezeiten aus: jede Nachricht kommt mit ihrem Benachrichtigungston.",
    unreadable: (typed) =>
      `Ich konnte „${typed}“ nicht als Ruhezeiten lesen: gib an, wann sie beginnen und enden, in deiner Zeitzone. Versuche /quiet 22:00-07:00 oder /quiet off.`,
  },
  dates: {
    weekdays: ["So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."],
    months: ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."],
    dayMonth: (day, month, year) => `${day}. ${month}${year ? ` ${year}` : ""}`,
    weekdayDay: (weekday, dayMonth) => `${weekday}, ${dayMonth}`,
    underAMinute: "in weniger als einer Minute",
    inMinutes: (minutes) => `in ${minutes} Min.`,
    inHours: (hours, minutes) => (minutes === 0 ? `in ${hours} Std.` : `in ${hours} Std. ${minutes} Min.`),
    inDays: (days, hours) => `in ${days} ${days === 1 ? "Tag" : "Tagen"}${hours === 0 ? "" : ` ${hours} Std.`}`,
  },
  help: {
    title: "Befehle",
    noModel: "Es ist kein Modell eingerichtet: Eine Nachricht wie „erinnere mich morgen um 9, Mama anzurufen“ wird als Erinnerung angeboten.",
    agent: "Alles andere, was du schreibst, geht an den Agenten.",
    does: {
      jobs: "geplante Jobs dieses Chats anzeigen",
      remind: "ein einmaliger Prompt",
      every: "ein wiederkehrender Prompt",
      edit: "Zeit, Text oder Ende eines Jobs ändern",
      skip: "nächsten Lauf eines wiederkehrenden Jobs überspringen",
      run: "einen Job jetzt ausführen",
      pause: "einen Job pausieren",
      resume: "einen pausierten Job fortsetzen",
      cancel: "einen Job löschen",
      hook: "eine geheime URL, die einen Job ausführt, wenn sie aufgerufen wird",
      calendar: "die Jobs dieses Chats in deiner Kalender-App",
      model: "Modell des Agenten anzeigen oder wählen",
      agenda: "die restlichen Läufe jedes Tages, zu einer Uhrzeit deiner Wahl",
      quiet: "Zeiten, in denen Nachrichten ohne Ton ankommen",
      timezone: "Zeitzone dieses Chats anzeigen oder festlegen",
      language: "Sprache meiner Antworten anzeigen oder festlegen",
      status: "Jobs, Zeitzone, Agent und Runner",
      help: "diese Befehle",
    },
    menu: {
      remind: "/remind morgen um 9:00 Mama anrufen, /remind 20m dehnen",
      every: "/every werktags um 8:30 Posteingang zusammenfassen",
      edit: "/edit <id> morgen 10:00, /edit <id> text Papa anrufen",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      hook: "/hook <id> new, /hook new Eingegangenes zusammenfassen",
      calendar: "/calendar, /calendar neu, /calendar aus",
      model: "/model, /model standard",
      agenda: "/agenda 8:00, /agenda aus",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language de, /language auto",
    },
    examples: {
      remind: (weekAhead) => `/remind 20m dehnen, /remind morgen um 9:00 Mama anrufen, /remind ${weekAhead} 14:30 Zahnarzt, /remind Montag um 9 Uhr Standup`,
      every:
        '/every täglich um 8:00 Nachrichten zusammenfassen, /every werktags um 8:30 Posteingang prüfen, /every 15 Minuten dehnen, /every "0 8 * * 1-5" den Tag planen',
      edit: "/edit <id> morgen 10:00, /edit <id> text Papa anrufen, /edit <id> bis März, /edit <id> verpasst überspringen; als Antwort auf die Nachricht eines Jobs: /edit in 2 Stunden",
      skip: "/skip <id> oder /skip als Antwort auf seine Nachricht",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  jobs: {
    none: "Keine geplanten Jobs.",
    title: (zone, now) => `**Geplante Jobs** (${zone}, jetzt ${now})`,
    once: (at) => `einmalig ${at}`,
    next: (at) => `nächster Lauf ${at}`,
    noNext: "kein nächster Lauf",
    onHook: "wenn sein Hook aufgerufen wird",
    hookless: (id) => `nur über einen Hook, und er hat keinen: /hook ${id} new`,
    hook: "🔗 Hook",
    model: (name) => `Modell ${name}`,
    missed: { skip: "falls verpasst: überspringen", all: "falls verpasst: alle nachholen", ask: "falls verpasst: fragen" },
    spanMinutes: (n) => `${n} Min.`,
    spanHours: (n) => `${n} Std.`,
    spanDays: (n) => (n === 1 ? "1 Tag" : `${n} Tage`),
    nag: (every, times) => `🔁 alle ${every} bis erledigt (${times}×)`,
    notices: (spans) => `🔔 ${spans} vorher`,
    paused: "pausiert",
    running: "läuft",
    lastRun: "letzter Lauf",
    runsLeft: (n) => `noch ${n} ${n === 1 ? "Lauf" : "Läufe"}`,
    until: (date) => `bis ${date}`,
    mainThread: "Hauptthread",
    thisTopic: "dieses Thema",
    topic: (id) => `Thema ${id}`,
    lastTransient: (exit) => `zuletzt: vorübergehender Fehler (Exit ${exit})`,
    lastOverBudget: "zuletzt: Budget überschritten",
    lastFailed: (exit, timedOut) =>
      exit !== ""
        ? `zuletzt: fehlgeschlagen (Exit ${exit}${timedOut ? ", Zeitüberschreitung" : ""})`
        : timedOut
          ? "zuletzt: fehlgeschlagen (Zeitüberschreitung)"
          : "zuletzt: fehlgeschlagen",
  },
  job: {
    created: (line) => `Erstellt: ${line}`,
    changed: (line) => `Geändert: ${line}`,
    cut: (schedule, text) =>
      `Ich habe „${schedule}“ als Zeitplan und ${text === null ? "die Nachricht, auf die du geantwortet hast," : `„${text}“`} als Text gelesen.`,
    understood: (at, zone, distance) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times) => `Als Nächstes: ${times}`,
    cancelled: (id, name) => `${id} (${name}) gelöscht.`,
    paused: (id, name) => `${id} (${name}) pausiert.`,
    running: (id, name) => `${id} (${name}) wird jetzt ausgeführt.`,
    resumed: (id, name, next) => (next ? `${id} (${name}) fortgesetzt; nächster Lauf ${next}.` : `${id} (${name}) fortgesetzt; es gibt keinen nächsten Lauf.`),
    skippedAt: (at) => `${at} übersprungen.`,
    skipped: (at, next) => `${at} übersprungen; ${next ? `nächster Lauf ${next}` : "es gibt keinen nächsten Lauf"}.`,
    usage: (command) => `Verwendung: /${command} <id> (siehe /jobs).`,
    editUsage:
      "Verwendung: /edit <id> <wann>, /edit <id> text <neuer Text> oder /edit <id> verpasst einmal|überspringen|alle|fragen (siehe /jobs); als Antwort auf die Nachricht eines Jobs: /edit <wann>.",
    missedWord: "verpasst",
    missedValues: { once: "einmal", skip: "überspringen", all: "alle", ask: "fragen" },
    missedUsage: (id) =>
      `Was soll mit einem Lauf passieren, der verpasst wurde, während der Bot offline war? /edit ${id} verpasst einmal (ein verspäteter Lauf, der Standard), überspringen (keiner), alle (jeder einzelne, höchstens 10) oder fragen (eine Nachricht mit „Jetzt ausführen“ und „Überspringen“).`,
    remindUsage: (a, b) => `/remind braucht eine Zeit und danach den Text der Erinnerung. Versuche ${a} oder ${b}.`,
    everyUsage: (a, b) => `/every braucht einen Zeitplan und danach den Text, der gesendet werden soll. Versuche ${a} oder ${b}.`,
    noText: (phrase, a, b) => `Nach „${phrase}“ fehlt ein Text: Was soll ich dann senden? Versuche ${a} oder ${b}.`,
    tooLong: (length, max) => `Der Text ist ${length} Zeichen lang; ein Job fasst höchstens ${max}. Kürze ihn und sende den Befehl noch einmal.`,
    noJob: (id) => `Kein Job ${id} in diesem Chat.`,
    gone: (id) =>
      `Der Job aus dieser Nachricht (${id}) existiert nicht mehr: Er ist gelaufen oder wurde gelöscht. Sende den Befehl noch einmal für einen neuen.`,
    onceNoEnd: (id) => `${id} läuft nur einmal und hat daher kein Ende, das sich ändern ließe; um ihn zu verschieben, sende /edit ${id} <wann>.`,
    notPartOfTime: (rest, id) =>
      `„${rest}“ gehört nicht zur Zeitangabe. Um den Text des Jobs zu ändern, sende /edit ${id} text ${rest}; um seine Zeit zu ändern, sende nur die Zeit.`,
    zoneNotice: (zone) => `Die Zeiten hier gelten für ${zone}. Wo bist du? Sende /timezone und deine Stadt, z. B. /timezone Berlin.`,
  },
  hook: {
    newWord: "neu",
    offWord: "aus",
    usage:
      "Verwendung: /hook <id> zeigt, ob ein Job einen Hook hat, /hook <id> new erstellt oder ersetzt ihn, /hook <id> off widerruft ihn, /hook new <Text> erstellt einen Job, den nur sein Hook ausführt.",
    has: (id) => `Job ${id} hat einen Hook. /hook ${id} new ersetzt ihn (die alte Adresse funktioniert dann nicht mehr); /hook ${id} off widerruft ihn.`,
    none: (id) => `Job ${id} hat keinen Hook. /hook ${id} new erstellt einen: eine geheime URL, die den Job ausführt, wenn etwas sie aufruft.`,
    made: (id, url, email) =>
      `Der Hook von Job ${id}, nur dieses eine Mal angezeigt (wer ihn hat, kann den Job ausführen, also halte ihn geheim):\n${url}${email ? `\nE-Mail: ${email}` : ""}\nSchicke JSON oder Text per POST daran: Der Body ist die Eingabe des Laufs.`,
    revoked: (id) => `Der Hook von Job ${id} ist widerrufen: Seine Adresse führt jetzt ins Leere.`,
    noneToRevoke: (id) => `Job ${id} hat keinen Hook.`,
    sentPrivately: "Ich habe dir die Adresse des Hooks in einer privaten Nachricht geschickt.",
    startFirst:
      "Ich kann dir noch nicht privat schreiben: Öffne einen Chat mit mir und tippe auf Starten, dann sende den Befehl noch einmal; oder erstelle den Hook auf der Scheduler-Seite oder in der Mini App.",
  },
  calendar: {
    usage:
      "Verwendung: /calendar zeigt den Kalender-Feed dieses Chats (beim ersten Mal wird er erstellt), /calendar neu ersetzt seine Adresse, /calendar aus schaltet ihn ab.",
    has: "Dieser Chat hat einen Kalender-Feed. /calendar neu ersetzt seine Adresse (die alte funktioniert dann nicht mehr); /calendar aus schaltet ihn ab.",
    made: (url) =>
      `Der Kalender-Feed dieses Chats, nur dieses eine Mal angezeigt (wer die Adresse hat, sieht die Jobs, also halte sie geheim):\n${url}\n` +
      "Abonniere ihn: Google Kalender → Weitere Kalender → Per URL; Apple Kalender → Ablage → Neues Kalenderabonnement; Outlook → Kalender hinzufügen → Aus dem Internet abonnieren.",
    revoked: "Der Kalender-Feed ist aus: Seine Adresse führt jetzt ins Leere.",
    noneToRevoke: "Dieser Chat hat keinen Kalender-Feed.",
    sentPrivately: "Ich habe dir die Adresse des Kalenders in einer privaten Nachricht geschickt.",
    startFirst:
      "Ich kann dir noch nicht privat schreiben: Öffne einen Chat mit mir und tippe auf Starten, dann sende den Befehl noch einmal; oder erstelle den Feed auf der Scheduler-Seite oder in der Mini App.",
  },
  buttons: {
    done: "Erledigt",
    in10min: "10 Min.",
    in1h: "1 Std.",
    tomorrow9: "Morgen 9:00",
    snooze1h: "1 Std. später",
    skipNext: "Nächsten überspringen",
    pause: "Pausieren",
    runNow: "Jetzt ausführen",
    cancel: "Abbrechen",
    create: "Erstellen",
    openScheduler: "Planer öffnen",
    doneAnswer: "Erledigt.",
    doneLine: "✅ Erledigt",
    snoozedAnswer: (until) => `Verschoben auf ${until}.`,
    snoozedLine: (until) => `⏰ Verschoben auf ${until}`,
    skippedLine: (at) => `⏭ ${at} übersprungen`,
    pausedLine: "⏸ Pausiert",
    skip: "Überspringen",
    missedRunLine: "▶️ Jetzt ausgeführt",
    missedSkippedLine: "⏭ Übersprungen",
    missedSkippedAnswer: (n) => (n === 1 ? "Verpassten Lauf übersprungen." : `${n} verpasste Läufe übersprungen.`),
    skipThisOne: "Diesen überspringen",
    sentAgainLine: "🔁 Unten erneut gesendet",
    answered: "Das wurde schon beantwortet.",
    gone: "Diese Nachricht ist zu alt dafür; siehe /jobs.",
    invalid: "Dieser Button gilt nicht mehr.",
  },
  missed: {
    askMany: (name, id, n, times) => `⏰ **${name}** (\`${id}\`) hat ${n} Läufe verpasst, während der Bot offline war: ${times}. Jetzt ausführen?`,
    askOne: (name, id, at) => `⏰ **${name}** (\`${id}\`) war für ${at} geplant, während der Bot offline war. Jetzt ausführen?`,
    more: (n) => `${n} weitere`,
    dropped: (name, id, at) => `**${name}** (\`${id}\`) übersprungen: Der Job war für ${at} geplant, während der Bot offline war.`,
  },
  model: {
    shown: (name, isDefault, choices) =>
      `Modell: ${name}${isDefault ? " (Standard des Bots)" : ""}. Zur Auswahl: ${choices}. Ändere es mit /model <Name>; /model standard kehrt zum Standard zurück.`,
    only: (name) => `Modell: ${name}, das einzige, das dieser Bot anbietet (sein Betreiber kann mit LLM_MODELS weitere hinzufügen).`,
    set: (name) => `Modell: ${name}. Jobs mit eigenem Modell behalten ihres.`,
    reset: (name) => `Modell: ${name} (Standard des Bots).`,
    none: "Dieser Bot nutzt kein Modell, es gibt also keins zur Auswahl (sein Betreiber legt es mit LLM_MODEL fest).",
    unknown: (typed, choices) => `„${typed}“ ist keins der Modelle dieses Bots; zur Auswahl stehen ${choices}.`,
    defaultWord: "standard",
    dropped: (wanted, used) => `(Das Modell ${wanted} wird nicht mehr angeboten, deshalb lief dies mit ${used}.)`,
  },
  copy: {
    kinds: {
      photo: "ein Foto",
      video: "ein Video",
      animation: "ein GIF",
      voice: "eine Sprachnachricht",
      audio: "eine Audiodatei",
      document: "eine Datei",
      sticker: "ein Sticker",
      video_note: "eine Videonachricht",
      location: "ein Standort",
      venue: "ein Ort",
      contact: "ein Kontakt",
      poll: "eine Umfrage",
      dice: "ein Würfel",
      story: "eine Story",
      forward_origin: "eine weitergeleitete Nachricht",
    },
    refused: "Diese Nachricht kann ich nicht zurückholen (Telegram lässt Bots sie nicht kopieren): Gib der Erinnerung stattdessen einen eigenen Text.",
    entry: (kind, messageId) => `📎 ${kind} (Nachricht ${messageId})`,
    gone: "📎 Die Nachricht zu dieser Erinnerung gibt es nicht mehr.",
  },
  nag: {
    mark: (n) => `🔁 **${n}. Erinnerung**`,
  },
  before: {
    notice: (ahead, name, at) => `${ahead.charAt(0).toUpperCase()}${ahead.slice(1)}: **${name}** (${at})`,
  },
  agenda: {
    title: (day, zone) => `**Heute** (${day}, ${zone})`,
    more: (n) => `und ${n} weitere: siehe /jobs`,
    none: "Keine Tagesübersicht. /agenda 8:00 schickt dir jeden Tag um 8:00 die restlichen Läufe des Tages.",
    show: (at, zone) => `Tagesübersicht um ${at} (${zone}): die restlichen Läufe des Tages, sofern es welche gibt. /agenda aus schaltet sie ab.`,
    set: (at, zone, next) => `Tagesübersicht um ${at} (${zone}), an Tagen mit Läufen; die erste am ${next}.`,
    off: "Tagesübersicht aus.",
    unreadable: (typed) => `Ich konnte „${typed}“ nicht als Uhrzeit lesen. Versuche /agenda 8:00 oder /agenda aus.`,
    offWord: "aus",
  },
  offer: {
    found: (text) => `Es ist kein Modell eingerichtet, aber das klingt nach einer Erinnerung: „${text}“`,
    ask: "Erstellen?",
    declined: "OK, keine Erinnerung.",
    created: (id) => `${id} erstellt.`,
    passedShort: "Dieser Zeitpunkt ist schon vorbei; es wurde nichts erstellt.",
    passed: (at, zone, a, b) => `Dieser Zeitpunkt ist schon vorbei (${at} in ${zone}); es wurde nichts erstellt. Versuche ${a} oder ${b}.`,
  },
  zone: {
    show: (zone, offset, isDefault) =>
      `Zeitzone: ${zone} (${offset}${isDefault ? ", Standard" : ""}). Ändere sie mit /timezone <IANA-Name>, z. B. /timezone America/New_York.`,
    set: (zone, offset, isDefault, now) => `Zeitzone auf ${zone} gestellt (${offset}${isDefault ? ", Standard" : ""}). Jetzt ist es ${now}.`,
    recurringFollow: (n) => (n === 1 ? `${n} wiederkehrender Job folgt jetzt dieser Zone` : `${n} wiederkehrende Jobs folgen jetzt dieser Zone`),
    oneOffsKeep: (n, times) =>
      n === 1 ? `1 einmaliger Job behält seine Zeit (hier jetzt ${times})` : `${n} einmalige Jobs behalten ihre Zeiten (hier jetzt ${times})`,
    more: (n) => `${n} weitere`,
    and: (items) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} und ${items[items.length - 1]}`),
    setShort: (zone) => `Zeitzone auf ${zone} gestellt.`,
    unknown: (typed) => `Ich kenne keine Zeitzone und keinen Ort namens „${typed}“. Versuche /timezone Berlin oder /timezone America/New_York.`,
    offset: (typed) =>
      `„${typed}“ ist ein UTC-Versatz; diese Zonen liegen gerade darauf. Tippe auf deine: Eine Zone berücksichtigt ihre Sommerzeit, ein fester Versatz nicht.`,
    fixed: (offset) => `${offset}, ohne Sommerzeit`,
    several: (typed) => `„${typed}“ hat mehr als eine Zeitzone. Tippe auf deine oder sende /timezone mit deiner Stadt.`,
  },
  status: {
    jobs: "Jobs",
    zone: "Zeitzone",
    default: "Standard",
    agent: "Agent",
    runner: "Runner",
    notConfigured: "nicht eingerichtet",
    blocked: "**Zustellung:** war bis zu dieser Nachricht blockiert (der Bot konnte diesen Chat nicht erreichen)",
  },
  problems: {
    runsOnce: (id) => `${id} läuft nur einmal; lösche oder bearbeite ihn stattdessen.`,
    hookOnly: (id) => `${id} läuft nur, wenn sein Hook aufgerufen wird, und hat daher keinen nächsten Lauf zum Überspringen.`,
    paused: (id) => `Job ${id} ist pausiert.`,
    nothingToSkip: (id, paused) =>
      paused
        ? `${id} ist pausiert und hat daher keinen nächsten Lauf zum Überspringen; setze ihn zuerst fort.`
        : `${id} hat keinen nächsten Lauf zum Überspringen.`,
    lastRun: (id) => `Der nächste Lauf von ${id} ist sein letzter vor dem Ende; lösche ihn stattdessen oder ändere zuerst sein Ende.`,
    noRunsLeft: (id, name, until) =>
      `Job ${id} (${name}) hat keinen geplanten Lauf mehr: ${until ? `sein nächster Lauf läge nach seinem Ende (bis ${until})` : "sein letzter geplanter Lauf hat schon begonnen"}. Gib ihm mit /edit ein späteres Ende oder mehr Läufe, oder lösche ihn.`,
    stillRunning: (id) => `Job ${id} läuft noch.`,
    tooManyJobs: (limit) => `Dieser Chat hat schon ${limit} Jobs (die Obergrenze); lösche zuerst einen.`,
    adminsOnly: "Nur Admins können die Jobs dieser Gruppe ändern.",
    rightsUnknown:
      "Ich konnte Telegram nicht fragen, wer die Admins dieser Gruppe sind, daher hat sich nichts geändert; versuche es in einer Minute noch einmal.",
  },
  topicGone: (jobs, n) =>
    `ℹ️ Das Thema, für das diese Nachricht gedacht war, gibt es nicht mehr, deshalb kommt sie hierher.${n === 0 ? "" : ` Ab jetzt ${n === 1 ? `sendet Job ${jobs}` : `senden die Jobs ${jobs}`} hierher.`}`,
  nonText: "Ich kann nur Textnachrichten lesen.",
  agent: {
    noModel:
      "Es ist kein Modell eingerichtet, daher kann ich nur deine geplanten Jobs ausführen. Sende /help " +
      "für die Befehle. Für eine Erinnerung: /remind morgen um 9:00 Mama anrufen",
    late: (at) => `Das war für ${at} geplant; der Bot war offline.`,
    lateMany: (n, at) => `${n} Läufe wurden verpasst, während der Bot offline war; dies ist der letzte (geplant für ${at}).`,
  },
};
