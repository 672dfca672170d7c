/** @module The replies in French (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

/** A chat time (`09:00` today, else `15 déc. 09:00`) after a verb: `à 09:00`, `le 15 déc. 09:00`. */
const atTime = (at: string) => (/^\d{1,2}:\d{2}$/.test(at) ? `à ${at}` : `le ${at}`);

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Langue : ${name}, ${chosen ? "choisie avec /language" : "celle de ton application Telegram"}. ` +
      `Change-la avec /language suivi de ${choices} (la langue de chaque message).`,
    set: (name) => `Langue réglée sur ${name}.`,
    auto:
      "La langue du chat suit désormais chaque message : celle de l'application Telegram de " +
      "l'expéditeur quand je la parle, sinon la dernière de ce genre, sinon l'anglais.",
    unknown: (typed, choices) => `« ${typed} » n'est pas une langue que je parle ; choisis parmi ${choices}, par exemple /language fr.`,
  },
  quiet: {
    none: "Pas d'heures calmes : chaque message arrive avec sa sonnerie. Définis-les avec /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Heures calmes : ${hours} (${zone}) : les messages envoyés pendant ce temps arrivent sans son. ` +
      `Change-les avec /quiet 23:00-06:30, ou désactive-les avec /quiet off.`,
    set: (hours, zone) => `Heures calmes définies : ${hours} (${zone}). Les messages envoyés pendant ce temps arrivent sans son ; rien n'est retenu.`,
    quietNow: " C'est calme en ce moment.",
    off: "Heures calmes désactivées : chaque message arrive avec sa sonnerie.",
    unreadable: (typed) =>
      `Je n'ai pas pu lire « ${typed} » comme des heures calmes : indique quand elles commencent et ` +
      `finissent, dans ton fuseau horaire. Essaie /quiet 22:00-07:00 ou /quiet off.`,
  },
  dates: {
    weekdays: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
    months: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."],
    dayMonth: (day, month, year) => `${day === 1 ? "1er" : day} ${month}${year ? ` ${year}` : ""}`,
    weekdayDay: (weekday, dayMonth) => `${weekday} ${dayMonth}`,
    underAMinute: "dans moins d'une minute",
    inMinutes: (minutes) => `dans ${minutes} min`,
    inHours: (hours, minutes) => (minutes === 0 ? `dans ${hours} h` : `dans ${hours} h ${minutes} min`),
    inDays: (days, hours) => {
      const d = `dans ${days} ${days < 2 ? "jour" : "jours"}`;
      return hours === 0 ? d : `${d} ${hours} h`;
    },
  },
  help: {
    title: "Commandes",
    noModel: "Aucun modèle n'est configuré : un message comme « rappelle-moi demain à 9h d'appeler maman » est proposé comme rappel.",
    agent: "Tout autre message est transmis à l'agent.",
    does: {
      jobs: "lister les tâches planifiées de ce chat",
      remind: "un rappel ponctuel",
      every: "un rappel récurrent",
      edit: "changer l'heure, le texte ou la fin d'une tâche",
      skip: "sauter la prochaine exécution d'une tâche récurrente",
      run: "exécuter une tâche maintenant",
      pause: "mettre une tâche en pause",
      resume: "reprendre une tâche en pause",
      cancel: "annuler une tâche",
      hook: "une URL secrète qui exécute une tâche quand on l'appelle",
      calendar: "les tâches de ce chat dans ton application d'agenda",
      model: "afficher ou choisir le modèle qu'utilise l'agent",
      agenda: "les exécutions restantes de chaque jour, à l'heure de ton choix",
      quiet: "heures où les messages arrivent sans son",
      timezone: "afficher ou changer le fuseau horaire du chat",
      language: "afficher ou changer la langue de mes réponses",
      status: "tâches, fuseau horaire, agent et exécuteur",
      help: "ces commandes",
    },
    menu: {
      remind: "/remind demain à 9:00 appeler maman, /remind 20m s'étirer",
      every: "/every en semaine à 8h30 résumer mes mails",
      edit: "/edit <id> demain 10:00, /edit <id> texte appeler papa",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      hook: "/hook <id> new, /hook new résumer ce qui est arrivé",
      calendar: "/calendar, /calendar nouveau, /calendar supprimer",
      model: "/model, /model défaut",
      agenda: "/agenda 8:00, /agenda désactiver",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language en, /language auto",
    },
    examples: {
      remind: (weekAhead) =>
        `/remind 20m s'étirer, /remind demain à 9:00 appeler maman, /remind ${weekAhead} 14:30 dentiste, /remind lundi à 9h point d'équipe`,
      every:
        "/every tous les jours à 8h00 résumer l'actualité, /every en semaine à 8h30 vérifier mes mails, " +
        '/every 15 minutes s\'étirer, /every "0 8 * * 1-5" planifier la journée',
      edit: "/edit <id> demain 10:00, /edit <id> texte appeler papa, /edit <id> jusqu'en mars, /edit <id> manqué sauter ; en réponse au message d'une tâche : /edit 2h",
      skip: "/skip <id>, ou /skip en réponse à son message",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  jobs: {
    none: "Aucune tâche planifiée.",
    title: (zone, now) => `**Tâches planifiées** (${zone}, actuellement ${now})`,
    once: (at) => `une fois : ${at}`,
    next: (at) => `prochaine : ${at}`,
    noNext: "pas de prochaine exécution",
    onHook: "quand son hook est appelé",
    hookless: (id) => `uniquement par un hook, et elle n'en a pas : /hook ${id} new`,
    hook: "🔗 hook",
    model: (name) => `modèle ${name}`,
    missed: { skip: "si manquée : sauter", all: "si manquée : tout rattraper", ask: "si manquée : demander" },
    spanMinutes: (n) => `${n} min`,
    spanHours: (n) => `${n} h`,
    spanDays: (n) => (n === 1 ? "1 jour" : `${n} jours`),
    nag: (every, times) => `🔁 toutes les ${every} jusqu’à ce que ce soit fait (${times}×)`,
    notices: (spans) => `🔔 ${spans} avant`,
    paused: "en pause",
    running: "en cours",
    lastRun: "dernière exécution",
    runsLeft: (n) => `${n} ${n < 2 ? "exécution restante" : "exécutions restantes"}`,
    until: (date) => `jusqu'au ${date}`,
    mainThread: "fil principal",
    thisTopic: "ce sujet",
    topic: (id) => `sujet ${id}`,
    lastTransient: (exit) => `dernier essai : échec temporaire (code ${exit})`,
    lastOverBudget: "dernier essai : budget dépassé",
    lastFailed: (exit, timedOut) =>
      exit !== ""
        ? `dernier essai : échec (code ${exit}${timedOut ? ", délai dépassé" : ""})`
        : timedOut
          ? "dernier essai : échec (délai dépassé)"
          : "dernier essai : échec",
  },
  job: {
    created: (line) => `Tâche créée : ${line}`,
    changed: (line) => `Tâche modifiée : ${line}`,
    cut: (schedule, text) => `J'ai lu « ${schedule} » comme l'horaire et ${text === null ? "le message auquel tu as répondu" : `« ${text} »`} comme le texte.`,
    understood: (at, zone, distance) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times) => `Prochaines : ${times}`,
    cancelled: (id, name) => `Tâche ${id} (${name}) annulée.`,
    paused: (id, name) => `Tâche ${id} (${name}) mise en pause.`,
    running: (id, name) => `Je lance ${id} (${name}) maintenant.`,
    resumed: (id, name, next) =>
      next ? `Tâche ${id} (${name}) reprise ; prochaine exécution : ${next}.` : `Tâche ${id} (${name}) reprise ; elle n'a pas de prochaine exécution.`,
    skippedAt: (at) => `Exécution sautée : ${at}.`,
    skipped: (at, next) => `Exécution sautée : ${at} ; ${next ? `prochaine : ${next}` : "aucune autre n'est prévue"}.`,
    usage: (command) => `Utilisation : /${command} <id> (voir /jobs).`,
    editUsage:
      "Utilisation : /edit <id> <quand>, /edit <id> texte <nouveau texte> ou /edit <id> manqué une|sauter|toutes|demander (voir /jobs) ; en réponse au message d'une tâche : /edit <quand>.",
    missedWord: "manqué",
    missedValues: { once: "une", skip: "sauter", all: "toutes", ask: "demander" },
    missedUsage: (id) =>
      `Que faire d'une exécution manquée pendant que le bot était hors ligne ? /edit ${id} manqué une (une seule exécution en retard, par défaut), sauter (aucune), toutes (chacune, 10 au plus) ou demander (un message avec Lancer maintenant et Sauter).`,
    remindUsage: (a, b) => `/remind attend une heure, puis le texte du rappel. Essaie ${a} ou ${b}.`,
    everyUsage: (a, b) => `/every attend une récurrence, puis le texte à envoyer. Essaie ${a} ou ${b}.`,
    noText: (phrase, a, b) => `« ${phrase} » doit être suivi d'un texte : que dois-je envoyer à ce moment-là ? Essaie ${a} ou ${b}.`,
    tooLong: (length, max) =>
      `Le texte fait ${length} ${length < 2 ? "caractère" : "caractères"} ; une tâche en contient au plus ${max}. Raccourcis-le et renvoie la commande.`,
    noJob: (id) => `Aucune tâche ${id} dans ce chat.`,
    gone: (id) => `La tâche créée par ce message (${id}) n'existe plus : elle a été exécutée ou annulée. Renvoie la commande pour en créer une nouvelle.`,
    onceNoEnd: (id) => `La tâche ${id} ne s'exécute qu'une fois : elle n'a donc pas de fin à modifier ; pour la déplacer, envoie /edit ${id} <quand>.`,
    notPartOfTime: (rest, id) =>
      `« ${rest} » ne fait pas partie d'une date ou d'une heure. Pour changer le texte de la tâche, ` +
      `envoie /edit ${id} texte ${rest} ; pour changer son heure, envoie l'heure seule.`,
    zoneNotice: (zone) => `Les heures sont indiquées ici en ${zone}. Où es-tu ? Envoie /timezone suivi de ta ville, par ex. /timezone Berlin.`,
  },
  hook: {
    newWord: "nouveau",
    offWord: "supprimer",
    usage:
      "Utilisation : /hook <id> indique si une tâche a un hook, /hook <id> new le crée ou le remplace, /hook <id> off le révoque, /hook new <texte> crée une tâche que seul son hook exécute.",
    has: (id) => `La tâche ${id} a un hook. /hook ${id} new le remplace (l'ancienne adresse cesse de fonctionner) ; /hook ${id} off le révoque.`,
    none: (id) => `La tâche ${id} n'a pas de hook. /hook ${id} new en crée un : une URL secrète qui exécute la tâche quand quelque chose l'appelle.`,
    made: (id, url, email) =>
      `Le hook de la tâche ${id}, affiché une seule fois (quiconque l'a peut exécuter la tâche, garde-le donc secret) :\n${url}${email ? `\nE-mail : ${email}` : ""}\nEnvoie-lui du JSON ou du texte en POST : le corps devient l'entrée de l'exécution.`,
    revoked: (id) => `Le hook de la tâche ${id} est révoqué : son adresse ne mène plus à rien.`,
    noneToRevoke: (id) => `La tâche ${id} n'a pas de hook.`,
    sentPrivately: "Je t'ai envoyé l'adresse du hook en message privé.",
    startFirst:
      "Je ne peux pas encore t'écrire en privé : ouvre une discussion avec moi et appuie sur Démarrer, puis renvoie la commande ; ou crée le hook sur la page Scheduler ou dans la Mini App.",
  },
  calendar: {
    usage:
      "Utilisation : /calendar affiche le flux d'agenda de ce chat (créé la première fois), /calendar nouveau remplace son adresse, /calendar supprimer le désactive.",
    has: "Ce chat a un flux d'agenda. /calendar nouveau remplace son adresse (l'ancienne cesse de fonctionner) ; /calendar supprimer le désactive.",
    made: (url) =>
      `Le flux d'agenda de ce chat, affiché une seule fois (quiconque a l'adresse voit les tâches, garde-la donc secrète) :\n${url}\n` +
      "Abonne-toi : Google Agenda → Autres agendas → À partir de l'URL ; Calendrier d'Apple → Fichier → Nouvel abonnement à un calendrier ; Outlook → Ajouter un calendrier → S'abonner à partir du web.",
    revoked: "Le flux d'agenda est désactivé : son adresse ne mène plus à rien.",
    noneToRevoke: "Ce chat n'a pas de flux d'agenda.",
    sentPrivately: "Je t'ai envoyé l'adresse de l'agenda en message privé.",
    startFirst:
      "Je ne peux pas encore t'écrire en privé : ouvre une discussion avec moi et appuie sur Démarrer, puis renvoie la commande ; ou crée le flux sur la page Scheduler ou dans la Mini App.",
  },
  buttons: {
    done: "Fait",
    in10min: "10 min",
    in1h: "1 h",
    tomorrow9: "Demain 9:00",
    snooze1h: "Reporter d'1 h",
    skipNext: "Sauter la prochaine",
    pause: "Pause",
    runNow: "Lancer maintenant",
    cancel: "Annuler",
    create: "Créer",
    openScheduler: "Ouvrir le planificateur",
    doneAnswer: "Fait.",
    doneLine: "✅ Fait",
    snoozedAnswer: (until) => `Reporté : ${until}.`,
    snoozedLine: (until) => `⏰ Reporté : ${until}`,
    skippedLine: (at) => `⏭ Sauté : ${at}`,
    pausedLine: "⏸ En pause",
    skip: "Sauter",
    missedRunLine: "▶️ Lancé maintenant",
    missedSkippedLine: "⏭ Sauté",
    missedSkippedAnswer: (n) => (n === 1 ? "Exécution manquée sautée." : `${n} exécutions manquées sautées.`),
    skipThisOne: "Sauter celui-ci",
    sentAgainLine: "🔁 Renvoyé plus bas",
    answered: "C'est déjà fait.",
    gone: "Ce message est trop ancien pour agir dessus ; voir /jobs.",
    invalid: "Ce bouton n'est plus valide.",
  },
  missed: {
    askMany: (name, id, n, times) =>
      `⏰ **${name}** (\`${id}\`) a manqué ${n} exécutions pendant que le bot était hors ligne : ${times}. La lancer maintenant ?`,
    askOne: (name, id, at) => `⏰ **${name}** (\`${id}\`) devait s'exécuter ${atTime(at)} pendant que le bot était hors ligne. La lancer maintenant ?`,
    more: (n) => `${n} ${n < 2 ? "autre" : "autres"}`,
    dropped: (name, id, at) => `Tâche **${name}** (\`${id}\`) sautée : elle devait s'exécuter ${atTime(at)} pendant que le bot était hors ligne.`,
  },
  model: {
    shown: (name, isDefault, choices) =>
      `Modèle : ${name}${isDefault ? " (modèle par défaut du bot)" : ""}. Choix : ${choices}. Change-le avec /model <nom> ; /model défaut revient au modèle par défaut.`,
    only: (name) => `Modèle : ${name}, le seul que propose ce bot (son propriétaire peut en ajouter d'autres avec LLM_MODELS).`,
    set: (name) => `Modèle : ${name}. Les tâches qui ont leur propre modèle gardent le leur.`,
    reset: (name) => `Modèle : ${name} (modèle par défaut du bot).`,
    none: "Ce bot n'utilise aucun modèle, il n'y a donc rien à choisir (son propriétaire le définit avec LLM_MODEL).",
    unknown: (typed, choices) => `« ${typed} » n'est pas un des modèles de ce bot ; choisis parmi ${choices}.`,
    defaultWord: "défaut",
    dropped: (wanted, used) => `(Le modèle ${wanted} n'est plus proposé, cette exécution a donc utilisé ${used}.)`,
  },
  copy: {
    kinds: {
      photo: "une photo",
      video: "une vidéo",
      animation: "un GIF",
      voice: "un message vocal",
      audio: "un fichier audio",
      document: "un fichier",
      sticker: "un sticker",
      video_note: "un message vidéo",
      location: "une position",
      venue: "un lieu",
      contact: "un contact",
      poll: "un sondage",
      dice: "un dé",
      story: "une story",
      forward_origin: "un message transféré",
    },
    refused: "Je ne peux pas renvoyer ce message (Telegram ne laisse pas les bots le copier) : donne plutôt au rappel un texte à lui.",
    entry: (kind, messageId) => `📎 ${kind} (message ${messageId})`,
    gone: "📎 Le message dont parlait ce rappel n'existe plus.",
  },
  nag: {
    mark: (n) => `🔁 **${n}e rappel**`,
  },
  before: {
    notice: (ahead, name, at) => `${ahead.charAt(0).toUpperCase()}${ahead.slice(1)}: **${name}** (${at})`,
  },
  agenda: {
    title: (day, zone) => `**Aujourd'hui** (${day}, ${zone})`,
    more: (n) => `et ${n} ${n < 2 ? "autre" : "autres"} : voir /jobs`,
    none: "Pas d'agenda quotidien. /agenda 8:00 t'envoie chaque jour à 8:00 les exécutions restantes de la journée.",
    show: (at, zone) => `Agenda quotidien à ${at} (${zone}) : les exécutions restantes de la journée, s'il y en a. Désactive-le avec /agenda désactiver.`,
    set: (at, zone, next) => `Agenda quotidien à ${at} (${zone}), les jours où il y a des exécutions ; premier envoi ${atTime(next)}.`,
    off: "Agenda quotidien désactivé.",
    unreadable: (typed) => `Je n'ai pas pu lire « ${typed} » comme une heure. Essaie /agenda 8:00 ou /agenda désactiver.`,
    offWord: "désactiver",
  },
  offer: {
    found: (text) => `Aucun modèle n'est configuré, mais ceci ressemble à un rappel : « ${text} »`,
    ask: "Le créer ?",
    declined: "D'accord, pas de rappel.",
    created: (id) => `Rappel ${id} créé.`,
    passedShort: "Cette heure est passée ; rien n'a été créé.",
    passed: (at, zone, a, b) => `Cette heure est passée (${at}, ${zone}) ; rien n'a été créé. Essaie ${a} ou ${b}.`,
  },
  zone: {
    show: (zone, offset, isDefault) =>
      `Fuseau horaire : ${zone} (${offset}${isDefault ? ", par défaut" : ""}). Change-le avec /timezone <nom IANA>, par ex. /timezone America/New_York.`,
    set: (zone, offset, isDefault, now) => `Fuseau horaire réglé sur ${zone} (${offset}${isDefault ? ", par défaut" : ""}). Heure actuelle : ${now}.`,
    recurringFollow: (n) => `${n} ${n < 2 ? "tâche récurrente suit" : "tâches récurrentes suivent"} désormais ce fuseau`,
    oneOffsKeep: (n, times) =>
      n < 2 ? `${n} tâche ponctuelle garde son heure (soit ${times} ici)` : `${n} tâches ponctuelles gardent leur heure (soit ${times} ici)`,
    more: (n) => `${n} ${n < 2 ? "autre" : "autres"}`,
    and: (items) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} et ${items[items.length - 1]}`),
    setShort: (zone) => `Fuseau horaire réglé sur ${zone}.`,
    unknown: (typed) => `Je ne connais aucun fuseau horaire ni lieu nommé « ${typed} ». Essaie /timezone Berlin ou /timezone America/New_York.`,
    offset: (typed) =>
      `« ${typed} » est un décalage ; voici les fuseaux qui l'utilisent en ce moment. Choisis le tien : un fuseau suit l'heure d'été, un décalage fixe non.`,
    fixed: (offset) => `${offset}, sans heure d'été`,
    several: (typed) => `« ${typed} » a plusieurs fuseaux horaires. Choisis le tien, ou envoie /timezone avec ta ville.`,
  },
  status: {
    jobs: "Tâches",
    zone: "Fuseau horaire",
    default: "par défaut",
    agent: "Agent",
    runner: "Exécuteur",
    notConfigured: "non configuré",
    blocked: "**Envoi :** bloqué jusqu'à ce message (le bot ne pouvait pas joindre ce chat)",
  },
  problems: {
    runsOnce: (id) => `La tâche ${id} ne s'exécute qu'une fois ; annule-la ou modifie-la plutôt.`,
    hookOnly: (id) => `La tâche ${id} ne s'exécute que quand son hook est appelé : elle n'a donc pas de prochaine exécution à sauter.`,
    paused: (id) => `La tâche ${id} est en pause.`,
    nothingToSkip: (id, paused) =>
      paused
        ? `La tâche ${id} est en pause : elle n'a pas de prochaine exécution à sauter ; reprends-la d'abord.`
        : `La tâche ${id} n'a pas de prochaine exécution à sauter.`,
    lastRun: (id) => `La prochaine exécution de la tâche ${id} est la dernière avant sa fin ; annule plutôt la tâche, ou modifie d'abord sa fin.`,
    noRunsLeft: (id, name, until) =>
      `La tâche ${id} (${name}) n'a plus d'exécution prévue : ${until ? `la prochaine tomberait après sa fin (jusqu'au ${until})` : "sa dernière exécution prévue a déjà commencé"}. Donne-lui une fin plus tardive ou davantage d'exécutions avec /edit, ou annule-la.`,
    stillRunning: (id) => `La tâche ${id} est encore en cours.`,
    tooManyJobs: (limit) => `Ce chat a déjà ${limit} ${limit < 2 ? "tâche" : "tâches"} (le maximum) ; annules-en une d'abord.`,
    adminsOnly: "Seuls les administrateurs du groupe peuvent modifier ses tâches.",
    rightsUnknown: "Je n'ai pas pu demander à Telegram qui sont les administrateurs de ce groupe, donc rien n'a changé ; réessaie dans une minute.",
  },
  topicGone: (jobs, n) =>
    `ℹ️ Le sujet prévu pour ce message n'existe plus, je l'envoie donc ici.${n === 0 ? "" : n === 1 ? ` Désormais, la tâche ${jobs} publie ici.` : ` Désormais, les tâches ${jobs} publient ici.`}`,
  nonText: "Je ne sais lire que les messages texte.",
  agent: {
    noModel:
      "Aucun modèle n'est configuré : je ne peux qu'exécuter tes tâches planifiées. Envoie /help pour " +
      "voir les commandes. Pour un rappel : /remind demain à 9:00 appeler maman",
    late: (at) => `C'était prévu : ${at} ; le bot était hors ligne.`,
    lateMany: (n, at) => `${n} exécutions ont été manquées pendant que le bot était hors ligne ; voici la dernière (prévue ${atTime(at)}).`,
  },
};
