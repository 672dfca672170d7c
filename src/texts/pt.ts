/** @module The replies in Portuguese (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

/** `14:00` (today) is said with `as`, `28 de set 08:00` without: `até as 14:00`, `até 28 de set 08:00`. */
const isClock = (at: string) => /^\d{1,2}:\d{2}$/.test(at);
const untilTime = (at: string) => (isClock(at) ? `até as ${at}` : `até ${at}`);
/** `das 14:00`, `de 28 de set 08:00`. */
const ofTime = (at: string) => (isClock(at) ? `das ${at}` : `de ${at}`);
/** `para as 14:00`, `para 28 de set 08:00`. */
const forTime = (at: string) => (isClock(at) ? `para as ${at}` : `para ${at}`);

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
      `Horário de silêncio: ${hours} (${zone}): as mensagens enviadas nesse horário chegam sem som. ` +
      `Mude-o com /quiet 23:00-06:30 ou desligue-o com /quiet off.`,
    set: (hours, zone) => `Horário de silêncio definido: ${hours} (${zone}). As mensagens enviadas nesse horário chegam sem som; nada fica retido.`,
    quietNow: " Agora é horário de silêncio.",
    off: "Horário de silêncio desligado: cada mensagem chega com o seu som de notificação.",
    unreadable: (typed) =>
      `Não consegui ler “${typed}” como horário de silêncio: diga quando começa e termina, no seu fuso horário. Tente /quiet 22:00-07:00 ou /quiet off.`,
  },
  dates: {
    weekdays: ["dom", "seg", "ter", "qua", "qui", "sex", "sáb"],
    months: ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"],
    dayMonth: (day, month, year) => `${day} de ${month}${year ? ` de ${year}` : ""}`,
    weekdayDay: (weekday, dayMonth) => `${weekday}, ${dayMonth}`,
    underAMinute: "em menos de um minuto",
    inMinutes: (minutes) => `em ${minutes} min`,
    inHours: (hours, minutes) => (minutes === 0 ? `em ${hours} h` : `em ${hours} h ${minutes} min`),
    inDays: (days, hours) => `em ${days} ${days === 1 ? "dia" : "dias"}${hours === 0 ? "" : ` ${hours} h`}`,
  },
  help: {
    title: "Comandos",
    noModel: "Nenhum modelo configurado: uma mensagem como “me lembre amanhã às 9 de ligar para a mãe” é oferecida como lembrete.",
    agent: "Qualquer outra coisa que você escrever vai para o agente.",
    does: {
      jobs: "lista as tarefas agendadas deste chat",
      remind: "agenda uma tarefa única",
      every: "agenda uma tarefa recorrente",
      edit: "muda o horário, o texto ou o fim de uma tarefa",
      skip: "pula a próxima execução de uma tarefa recorrente",
      run: "executa uma tarefa agora",
      pause: "pausa uma tarefa",
      resume: "retoma uma tarefa pausada",
      cancel: "cancela uma tarefa",
      hook: "uma URL secreta que executa uma tarefa quando é chamada",
      calendar: "as tarefas deste chat no seu aplicativo de calendário",
      model: "mostra ou escolhe o modelo que o agente usa",
      agenda: "as execuções restantes de cada dia, no horário que você escolher",
      quiet: "horário em que as mensagens chegam sem som",
      timezone: "mostra ou define o fuso horário deste chat",
      language: "mostra ou define o idioma das minhas respostas",
      status: "tarefas, fuso horário, agente e executor",
      help: "estes comandos",
    },
    menu: {
      remind: "/remind amanhã às 9:00 ligar para a mãe, /remind 20m alongar",
      every: "/every dias úteis às 8:30 resumir meus e-mails",
      edit: "/edit <id> amanhã 10:00, /edit <id> texto ligar para o pai",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      hook: "/hook <id> new, /hook new resumir o que chegou",
      calendar: "/calendar, /calendar novo, /calendar remover",
      model: "/model, /model padrão",
      agenda: "/agenda 8:00, /agenda desligar",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language de, /language auto",
    },
    examples: {
      remind: (weekAhead) =>
        `/remind 20m alongar, /remind amanhã às 9:00 ligar para a mãe, /remind ${weekAhead} 14:30 dentista, /remind segunda às 9:00 reunião diária`,
      every:
        '/every todos os dias às 8:00 resumir as notícias, /every dias úteis às 8:30 ver meus e-mails, /every 15 minutos alongar, /every "0 8 * * 1-5" planejar o dia',
      edit: "/edit <id> amanhã 10:00, /edit <id> texto ligar para o pai, /edit <id> até março, /edit <id> perdida pular; em resposta à mensagem de uma tarefa: /edit 2h",
      skip: "/skip <id>, ou /skip em resposta à mensagem da tarefa",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  jobs: {
    none: "Nenhuma tarefa agendada.",
    title: (zone, now) => `**Tarefas agendadas** (${zone}, agora ${now})`,
    once: (at) => `uma vez: ${at}`,
    next: (at) => `próxima: ${at}`,
    noNext: "sem próxima execução",
    onHook: "quando o hook dela é chamado",
    hookless: (id) => `só por um hook, e ela não tem nenhum: /hook ${id} new`,
    hook: "🔗 hook",
    model: (name) => `modelo ${name}`,
    missed: { skip: "se perdida: pular", all: "se perdida: executar todas", ask: "se perdida: perguntar" },
    spanMinutes: (n) => `${n} min`,
    spanHours: (n) => `${n} h`,
    spanDays: (n) => (n === 1 ? "1 dia" : `${n} dias`),
    nag: (every, times) => `🔁 a cada ${every} até estar feito (${times}×)`,
    notices: (spans) => `🔔 ${spans} antes`,
    paused: "pausada",
    running: "em execução",
    lastRun: "última execução",
    runsLeft: (n) => (n === 1 ? "falta 1 execução" : `faltam ${n} execuções`),
    until: (date) => `até ${date}`,
    mainThread: "conversa principal",
    thisTopic: "este tópico",
    topic: (id) => `tópico ${id}`,
    lastTransient: (exit) => `última: falha temporária (código ${exit})`,
    lastOverBudget: "última: orçamento excedido",
    lastFailed: (exit, timedOut) =>
      exit !== "" ? `última: falhou (código ${exit}${timedOut ? ", tempo esgotado" : ""})` : timedOut ? "última: falhou (tempo esgotado)" : "última: falhou",
  },
  job: {
    created: (line) => `Tarefa criada: ${line}`,
    changed: (line) => `Tarefa alterada: ${line}`,
    cut: (schedule, text) => `Li “${schedule}” como o horário e ${text === null ? "a mensagem à qual você respondeu" : `“${text}”`} como o texto.`,
    understood: (at, zone, distance) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times) => `Próximas: ${times}`,
    cancelled: (id, name) => `Tarefa ${id} (${name}) cancelada.`,
    paused: (id, name) => `Tarefa ${id} (${name}) pausada.`,
    running: (id, name) => `Executando ${id} (${name}) agora.`,
    resumed: (id, name, next) =>
      next ? `Tarefa ${id} (${name}) retomada; próxima: ${next}.` : `Tarefa ${id} (${name}) retomada; ela não tem próxima execução.`,
    skippedAt: (at) => `Execução ${ofTime(at)} pulada.`,
    skipped: (at, next) => `Execução ${ofTime(at)} pulada; ${next ? `próxima: ${next}` : "não há próxima execução"}.`,
    usage: (command) => `Uso: /${command} <id> (veja /jobs).`,
    editUsage:
      "Uso: /edit <id> <quando>, /edit <id> texto <novo texto> ou /edit <id> perdida uma|pular|todas|perguntar (veja /jobs); em resposta à mensagem de uma tarefa, /edit <quando>.",
    missedWord: "perdida",
    missedValues: { once: "uma", skip: "pular", all: "todas", ask: "perguntar" },
    missedUsage: (id) =>
      `O que fazer com uma execução perdida enquanto o bot estava offline? /edit ${id} perdida uma (uma execução atrasada, o padrão), pular (nenhuma), todas (cada uma, no máximo 10) ou perguntar (uma mensagem com Executar agora e Pular).`,
    remindUsage: (a, b) => `O /remind precisa de um horário e depois do texto do lembrete. Tente ${a} ou ${b}.`,
    everyUsage: (a, b) => `O /every precisa de uma frequência e depois do texto a enviar. Tente ${a} ou ${b}.`,
    noText: (phrase, a, b) => `“${phrase}” precisa de um texto depois: o que devo enviar nesse horário? Tente ${a} ou ${b}.`,
    tooLong: (length, max) =>
      `O texto tem ${length} ${length === 1 ? "caractere" : "caracteres"}; uma tarefa aceita no máximo ${max}. Encurte-o e envie o comando de novo.`,
    noJob: (id) => `Não há nenhuma tarefa ${id} neste chat.`,
    gone: (id) => `A tarefa criada por esta mensagem (${id}) não existe mais: foi executada ou cancelada. Envie o comando de novo para criar outra.`,
    onceNoEnd: (id) => `A tarefa ${id} roda uma só vez, então não tem fim para mudar; para mudar o horário dela, envie /edit ${id} <quando>.`,
    notPartOfTime: (rest, id) =>
      `“${rest}” não faz parte de um horário. Para mudar o texto da tarefa, envie /edit ${id} texto ${rest}; para mudar o horário, envie só o horário.`,
    zoneNotice: (zone) => `Os horários aqui estão em ${zone}. Onde você está? Envie /timezone e a sua cidade, por exemplo /timezone Berlin.`,
  },
  hook: {
    newWord: "novo",
    offWord: "remover",
    usage:
      "Uso: /hook <id> diz se uma tarefa tem um hook, /hook <id> new cria ou substitui o hook, /hook <id> off revoga o hook, /hook new <texto> cria uma tarefa que só o hook dela executa.",
    has: (id) => `A tarefa ${id} tem um hook. /hook ${id} new o substitui (o endereço antigo deixa de funcionar); /hook ${id} off o revoga.`,
    none: (id) => `A tarefa ${id} não tem hook. /hook ${id} new cria um: uma URL secreta que executa a tarefa quando algo a chama.`,
    made: (id, url, email) =>
      `O hook da tarefa ${id}, mostrado só desta vez (quem o tiver pode executar a tarefa, então guarde-o em segredo):\n${url}${email ? `\nE-mail: ${email}` : ""}\nEnvie JSON ou texto para ele por POST: o corpo é a entrada da execução.`,
    revoked: (id) => `O hook da tarefa ${id} foi revogado: o endereço dele não leva mais a nada.`,
    noneToRevoke: (id) => `A tarefa ${id} não tem hook.`,
    sentPrivately: "Enviei o endereço do hook para você numa mensagem privada.",
    startFirst:
      "Ainda não posso escrever para você no privado: abra um chat comigo e toque em Iniciar, depois envie o comando de novo; ou crie o hook na página Scheduler ou no Mini App.",
  },
  calendar: {
    usage:
      "Uso: /calendar mostra o feed de calendário deste chat (criado na primeira vez), /calendar novo substitui o endereço dele, /calendar remover o desativa.",
    has: "Este chat tem um feed de calendário. /calendar novo substitui o endereço dele (o antigo deixa de funcionar); /calendar remover o desativa.",
    made: (url) =>
      `O feed de calendário deste chat, mostrado só desta vez (quem tiver o endereço vê as tarefas, então guarde-o em segredo):\n${url}\n` +
      "Assine: Google Agenda → Outras agendas → Do URL; Calendário da Apple → Arquivo → Nova Assinatura de Calendário; Outlook → Adicionar calendário → Assinar da Web.",
    revoked: "O feed de calendário foi desativado: o endereço dele não leva mais a nada.",
    noneToRevoke: "Este chat não tem feed de calendário.",
    sentPrivately: "Enviei o endereço do calendário para você numa mensagem privada.",
    startFirst:
      "Ainda não posso escrever para você no privado: abra um chat comigo e toque em Iniciar, depois envie o comando de novo; ou crie o feed na página Scheduler ou no Mini App.",
  },
  buttons: {
    done: "Feito",
    in10min: "10 min",
    in1h: "1 h",
    tomorrow9: "Amanhã 9:00",
    snooze1h: "Adiar 1 h",
    skipNext: "Pular a próxima",
    pause: "Pausar",
    runNow: "Executar agora",
    cancel: "Cancelar",
    create: "Criar",
    openScheduler: "Abrir o agendador",
    doneAnswer: "Feito.",
    doneLine: "✅ Feito",
    snoozedAnswer: (until) => `Adiado ${untilTime(until)}.`,
    snoozedLine: (until) => `⏰ Adiado ${untilTime(until)}`,
    skippedLine: (at) => `⏭ Execução ${ofTime(at)} pulada`,
    pausedLine: "⏸ Pausada",
    skip: "Pular",
    missedRunLine: "▶️ Executada agora",
    missedSkippedLine: "⏭ Pulada",
    missedSkippedAnswer: (n) => (n === 1 ? "Execução perdida pulada." : `${n} execuções perdidas puladas.`),
    skipThisOne: "Pular este",
    sentAgainLine: "🔁 Enviado de novo abaixo",
    answered: "Isto já foi respondido.",
    gone: "Esta mensagem é antiga demais para isso; veja /jobs.",
    invalid: "Este botão não é mais válido.",
  },
  missed: {
    askMany: (name, id, n, times) => `⏰ **${name}** (\`${id}\`) perdeu ${n} execuções enquanto o bot estava offline: ${times}. Executar agora?`,
    askOne: (name, id, at) => `⏰ **${name}** (\`${id}\`) estava prevista ${forTime(at)} enquanto o bot estava offline. Executar agora?`,
    more: (n) => `mais ${n}`,
    dropped: (name, id, at) => `**${name}** (\`${id}\`) foi pulada: estava prevista ${forTime(at)} enquanto o bot estava offline.`,
  },
  model: {
    shown: (name, isDefault, choices) =>
      `Modelo: ${name}${isDefault ? " (o padrão do bot)" : ""}. Opções: ${choices}. Mude-o com /model <nome>; /model padrão volta ao padrão.`,
    only: (name) => `Modelo: ${name}, o único que este bot oferece (o dono dele pode adicionar mais com LLM_MODELS).`,
    set: (name) => `Modelo: ${name}. As tarefas com um modelo próprio mantêm o delas.`,
    reset: (name) => `Modelo: ${name} (o padrão do bot).`,
    none: "Este bot não usa nenhum modelo, então não há nenhum para escolher (o dono dele o define com LLM_MODEL).",
    unknown: (typed, choices) => `“${typed}” não é um dos modelos deste bot; escolha entre ${choices}.`,
    defaultWord: "padrão",
    dropped: (wanted, used) => `(O modelo ${wanted} não está mais disponível, então isto rodou com ${used}.)`,
  },
  copy: {
    kinds: {
      photo: "uma foto",
      video: "um vídeo",
      animation: "um GIF",
      voice: "uma mensagem de voz",
      audio: "um arquivo de áudio",
      document: "um arquivo",
      sticker: "uma figurinha",
      video_note: "uma mensagem de vídeo",
      location: "uma localização",
      venue: "um local",
      contact: "um contato",
      poll: "uma enquete",
      dice: "um dado",
      story: "um story",
      forward_origin: "uma mensagem encaminhada",
    },
    refused: "Não consigo trazer essa mensagem de volta (o Telegram não deixa bots copiá-la): dê ao lembrete um texto próprio.",
    entry: (kind, messageId) => `📎 ${kind} (mensagem ${messageId})`,
    gone: "📎 A mensagem deste lembrete não existe mais.",
  },
  nag: {
    mark: (n) => `🔁 **${n}.º lembrete**`,
  },
  before: {
    notice: (ahead, name, at) => `${ahead.charAt(0).toUpperCase()}${ahead.slice(1)}: **${name}** (${at})`,
  },
  agenda: {
    title: (day, zone) => `**Hoje** (${day}, ${zone})`,
    more: (n) => `e mais ${n}: veja /jobs`,
    none: "Sem agenda diária. /agenda 8:00 envia todos os dias às 8:00 as execuções restantes do dia.",
    show: (at, zone) => `Agenda diária às ${at} (${zone}): as execuções restantes do dia, quando houver. Desligue-a com /agenda desligar.`,
    set: (at, zone, next) => `Agenda diária às ${at} (${zone}), nos dias com execuções; o primeiro envio: ${next}.`,
    off: "Agenda diária desligada.",
    unreadable: (typed) => `Não consegui ler “${typed}” como um horário. Tente /agenda 8:00 ou /agenda desligar.`,
    offWord: "desligar",
  },
  offer: {
    found: (text) => `Nenhum modelo configurado, mas isto parece um lembrete: “${text}”`,
    ask: "Criar o lembrete?",
    declined: "Ok, sem lembrete.",
    created: (id) => `Lembrete ${id} criado.`,
    passedShort: "Esse horário já passou; nada foi criado.",
    passed: (at, zone, a, b) => `Esse horário já passou (${at} em ${zone}); nada foi criado. Tente ${a} ou ${b}.`,
  },
  zone: {
    show: (zone, offset, isDefault) =>
      `Fuso horário: ${zone} (${offset}${isDefault ? ", padrão" : ""}). Mude-o com /timezone <nome IANA>, por exemplo /timezone America/New_York.`,
    set: (zone, offset, isDefault, now) => `Fuso horário definido como ${zone} (${offset}${isDefault ? ", padrão" : ""}). Agora: ${now}.`,
    recurringFollow: (n) => (n === 1 ? "1 tarefa recorrente agora segue este fuso" : `${n} tarefas recorrentes agora seguem este fuso`),
    oneOffsKeep: (n, times) =>
      n === 1 ? `1 tarefa única mantém o seu horário (aqui, agora ${times})` : `${n} tarefas únicas mantêm os seus horários (aqui, agora ${times})`,
    more: (n) => `mais ${n}`,
    and: (items) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]}`),
    setShort: (zone) => `Fuso horário definido como ${zone}.`,
    unknown: (typed) => `Não conheço nenhum fuso horário ou lugar chamado “${typed}”. Tente /timezone Berlin ou /timezone America/New_York.`,
    offset: (typed) =>
      `“${typed}” é uma diferença em relação ao UTC; estes fusos a usam agora. Toque no seu: um fuso acompanha o horário de verão, uma diferença fixa não.`,
    fixed: (offset) => `${offset}, sem horário de verão`,
    several: (typed) => `“${typed}” tem mais de um fuso horário. Toque no seu ou envie /timezone com a sua cidade.`,
  },
  status: {
    jobs: "Tarefas",
    zone: "Fuso horário",
    default: "padrão",
    agent: "Agente",
    runner: "Executor",
    notConfigured: "não configurado",
    blocked: "**Entrega:** ficou bloqueada até esta mensagem (o bot não conseguia acessar este chat)",
  },
  problems: {
    runsOnce: (id) => `A tarefa ${id} roda uma só vez; em vez de pular, cancele-a ou edite-a.`,
    hookOnly: (id) => `A tarefa ${id} só roda quando o hook dela é chamado, então não tem próxima execução para pular.`,
    paused: (id) => `A tarefa ${id} está pausada.`,
    nothingToSkip: (id, paused) =>
      paused
        ? `A tarefa ${id} está pausada, então não tem próxima execução para pular; retome-a primeiro.`
        : `A tarefa ${id} não tem próxima execução para pular.`,
    lastRun: (id) => `A próxima execução da tarefa ${id} é a última antes do fim; cancele-a ou, antes de pular, mude o fim dela.`,
    noRunsLeft: (id, name, until) =>
      `A tarefa ${id} (${name}) não tem mais execuções agendadas: ${until ? `a próxima seria depois do fim (${untilTime(until)})` : "a última execução agendada já começou"}. Com /edit, adie o fim dela ou dê mais execuções a ela; ou cancele-a.`,
    stillRunning: (id) => `A tarefa ${id} ainda está em execução.`,
    tooManyJobs: (limit) => `Este chat já tem ${limit} ${limit === 1 ? "tarefa" : "tarefas"} (o limite); cancele uma primeiro.`,
    adminsOnly: "Só os administradores do grupo podem mudar as tarefas dele.",
    rightsUnknown: "Não consegui perguntar ao Telegram quem são os administradores deste grupo, então nada mudou; tente de novo em um minuto.",
  },
  topicGone: (jobs, n) =>
    `ℹ️ O tópico a que esta mensagem se destinava não existe mais, então ela veio para cá.${n === 0 ? "" : ` A partir de agora, ${n === 1 ? `a tarefa ${jobs} envia` : `as tarefas ${jobs} enviam`} as mensagens para cá.`}`,
  nonText: "Só consigo ler mensagens de texto.",
  agent: {
    noModel:
      "Nenhum modelo está configurado, então só posso executar suas tarefas agendadas. Envie /help " +
      "para ver os comandos. Para um lembrete: /remind amanhã às 9:00 ligar para a mãe",
    late: (at) => `Estava previsto: ${at}; o bot estava offline.`,
    lateMany: (n, at) => `${n} execuções foram perdidas enquanto o bot estava offline; esta é a última (prevista ${forTime(at)}).`,
  },
};
