/** @module The replies in Russian (docs/telegram.md#language), key for key as `en.ts`. */
import type { Texts } from "./en";

/** The form of a word after the number `n`: 1, 21 take `one`; 2–4, 22–24 take `few`; 5–20, 11–14 and the rest take `many`. */
const plural = (n: number, one: string, few: string, many: string): string => {
  const [ten, hundred] = [n % 10, n % 100];
  if (ten === 1 && hundred !== 11) return one;
  return ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14) ? few : many;
};

export const texts: Texts = {
  language: {
    show: (name, chosen, choices) =>
      `Язык: ${name}, ${chosen ? "выбран командой /language" : "язык вашего приложения Telegram"}. ` +
      `Измените его командой /language и одним из: ${choices} (язык каждого сообщения).`,
    set: (name) => `Язык изменён на ${name}.`,
    auto: "Теперь язык чата следует за каждым сообщением: язык приложения Telegram отправителя, если я его знаю, иначе последний такой, иначе английский.",
    unknown: (typed, choices) => `«${typed}» — не язык, на котором я говорю; выберите один из: ${choices}, например /language ru.`,
  },
  quiet: {
    none: "Тихих часов нет: каждое сообщение приходит со звуком уведомления. Задайте их командой /quiet 22:00-07:00.",
    show: (hours, zone) =>
      `Тихие часы: ${hours} (${zone}): сообщения, отправленные в это время, приходят без звука. Измените их командой /quiet 23:00-06:30 или отключите командой /quiet off.`,
    set: (hours, zone) => `Тихие часы заданы: ${hours} (${zone}). Сообщения, отправленные в это время, приходят без звука; ничего не задерживается.`,
    quietNow: " Сейчас тихие часы.",
    off: "Тихие часы отключены: каждое сообщение приходит со звуком уведомления.",
    unreadable: (typed) =>
      `Не удалось прочитать «${typed}» как тихие часы: укажите, когда они начинаются и заканчиваются, в вашем часовом поясе. Попробуйте /quiet 22:00-07:00 или /quiet off.`,
  },
  dates: {
    weekdays: ["вс", "пн", "вт", "ср", "чт", "пт", "сб"],
    months: ["янв.", "февр.", "мар.", "апр.", "мая", "июн.", "июл.", "авг.", "сент.", "окт.", "нояб.", "дек."],
    dayMonth: (day, month, year) => `${day} ${month}${year ? ` ${year} г.` : ""}`,
    weekdayDay: (weekday, dayMonth) => `${weekday}, ${dayMonth}`,
    underAMinute: "меньше чем через минуту",
    inMinutes: (minutes) => `через ${minutes} мин`,
    inHours: (hours, minutes) => (minutes === 0 ? `через ${hours} ч` : `через ${hours} ч ${minutes} мин`),
    inDays: (days, hours) => {
      const d = `через ${days} ${plural(days, "день", "дня", "дней")}`;
      return hours === 0 ? d : `${d} ${hours} ч`;
    },
  },
  help: {
    title: "Команды",
    noModel: "Модель не настроена: сообщение вроде «напомни завтра в 9 позвонить маме» я предложу сохранить как напоминание.",
    agent: "Всё остальное, что вы пишете, передаётся агенту.",
    does: {
      jobs: "список запланированных задач этого чата",
      remind: "разовое напоминание",
      every: "повторяющееся напоминание",
      edit: "изменить время, текст или окончание задачи",
      skip: "пропустить следующий запуск повторяющейся задачи",
      run: "запустить задачу сейчас",
      pause: "приостановить задачу",
      resume: "возобновить приостановленную задачу",
      cancel: "отменить задачу",
      quiet: "часы, когда сообщения приходят без звука",
      timezone: "показать или задать часовой пояс чата",
      language: "показать или задать язык моих ответов",
      status: "задачи, часовой пояс, агент и исполнитель",
      help: "эти команды",
    },
    menu: {
      remind: "/remind завтра в 9:00 позвонить маме, /remind 20 мин размяться",
      every: "/every по будням в 8:30 разобрать почту",
      edit: "/edit <id> завтра в 10:00, /edit <id> text позвонить папе",
      skip: "/skip <id>",
      run: "/run <id>",
      pause: "/pause <id>",
      resume: "/resume <id>",
      cancel: "/cancel <id>",
      quiet: "/quiet 22:00-07:00, /quiet off",
      timezone: "/timezone Berlin, /timezone reset",
      language: "/language ru, /language auto",
    },
    examples: {
      remind: (weekAhead) =>
        `/remind 20 мин размяться, /remind завтра в 9:00 позвонить маме, /remind ${weekAhead} 14:30 к стоматологу, /remind в понедельник в 9:00 планёрка`,
      every:
        '/every день в 8:00 сделать обзор новостей, /every по будням в 8:30 разобрать почту, /every 15 минут размяться, /every "0 8 * * 1-5" спланировать день',
      edit: "/edit <id> завтра в 10:00, /edit <id> text позвонить папе, /edit <id> до марта; в ответ на сообщение задачи: /edit через 2 часа",
      skip: "/skip <id> или /skip в ответ на сообщение задачи",
      timezone: "/timezone Berlin, /timezone America/New_York, /timezone reset",
    },
  },
  jobs: {
    none: "Запланированных задач нет.",
    title: (zone, now) => `**Запланированные задачи** (${zone}, сейчас ${now})`,
    once: (at) => `один раз: ${at}`,
    next: (at) => `следующий запуск: ${at}`,
    noNext: "следующего запуска нет",
    paused: "на паузе",
    running: "выполняется",
    lastRun: "последний запуск",
    runsLeft: (n) => `${plural(n, "остался", "осталось", "осталось")} ${n} ${plural(n, "запуск", "запуска", "запусков")}`,
    until: (date) => `до ${date}`,
    mainThread: "основная ветка",
    thisTopic: "эта тема",
    topic: (id) => `тема ${id}`,
    lastTransient: (exit) => `последний запуск: временный сбой (код ${exit})`,
    lastOverBudget: "последний запуск: превышен бюджет",
    lastFailed: (exit, timedOut) =>
      exit !== ""
        ? `последний запуск: ошибка (код ${exit}${timedOut ? ", время истекло" : ""})`
        : timedOut
          ? "последний запуск: ошибка (время истекло)"
          : "последний запуск: ошибка",
  },
  job: {
    created: (line) => `Создано: ${line}`,
    changed: (line) => `Изменено: ${line}`,
    cut: (schedule, text) => `Расписание — «${schedule}», текст — ${text === null ? "сообщение, на которое вы ответили" : `«${text}»`}.`,
    understood: (at, zone, distance) => `⏰ ${at} (${zone}), ${distance}`,
    nextRuns: (times) => `Следующие запуски: ${times}`,
    cancelled: (id, name) => `Задача ${id} (${name}) отменена.`,
    paused: (id, name) => `Задача ${id} (${name}) приостановлена.`,
    running: (id, name) => `Запускаю задачу ${id} (${name}).`,
    resumed: (id, name, next) =>
      next ? `Задача ${id} (${name}) возобновлена; следующий запуск: ${next}.` : `Задача ${id} (${name}) возобновлена; следующего запуска нет.`,
    skipped: (at, next) => `Запуск ${at} пропущен; ${next ? `следующий: ${next}` : "следующего запуска нет"}.`,
    usage: (command) => `Формат: /${command} <id> (см. /jobs).`,
    editUsage: "Формат: /edit <id> <когда> или /edit <id> text <новый текст> (см. /jobs); в ответ на сообщение задачи — /edit <когда>.",
    remindUsage: (a, b) => `После /remind укажите время, а затем текст напоминания. Попробуйте ${a} или ${b}.`,
    everyUsage: (a, b) => `После /every укажите расписание, а затем текст, который нужно отправлять. Попробуйте ${a} или ${b}.`,
    noText: (phrase, a, b) => `После «${phrase}» нужен текст: что мне отправить? Попробуйте ${a} или ${b}.`,
    tooLong: (length, max) =>
      `В тексте ${length} ${plural(length, "символ", "символа", "символов")}, а задача вмещает не больше ${max}. Сократите его и отправьте команду ещё раз.`,
    noJob: (id) => `В этом чате нет задачи ${id}.`,
    gone: (id) => `Задачи, созданной этим сообщением (${id}), больше нет: она уже выполнена или отменена. Отправьте команду ещё раз, чтобы создать новую.`,
    onceNoEnd: (id) => `Задача ${id} выполняется один раз, у неё нет окончания; чтобы перенести её, отправьте /edit ${id} <когда>.`,
    notPartOfTime: (rest, id) =>
      `«${rest}» — не часть времени. Чтобы изменить текст задачи, отправьте /edit ${id} text ${rest}; чтобы изменить время, отправьте только время.`,
    zoneNotice: (zone) => `Время здесь указано по поясу ${zone}. Где вы находитесь? Отправьте /timezone и ваш город, например /timezone Berlin.`,
  },
  buttons: {
    done: "Готово",
    in10min: "10 мин",
    in1h: "1 ч",
    tomorrow9: "Завтра в 9:00",
    snooze1h: "Отложить на 1 ч",
    skipNext: "Пропустить следующий",
    pause: "Пауза",
    runNow: "Запустить сейчас",
    cancel: "Отменить",
    create: "Создать",
    openScheduler: "Открыть планировщик",
    doneAnswer: "Готово.",
    doneLine: "✅ Готово",
    snoozedAnswer: (until) => `Отложено до ${until}.`,
    snoozedLine: (until) => `⏰ Отложено до ${until}`,
    skippedLine: (at) => `⏭ Запуск ${at} пропущен`,
    pausedLine: "⏸ На паузе",
    answered: "На это уже ответили.",
    gone: "Это сообщение слишком старое, с ним уже ничего не сделать; см. /jobs.",
    invalid: "Эта кнопка больше не действует.",
  },
  offer: {
    found: (text) => `Модель не настроена, но это похоже на напоминание: «${text}»`,
    ask: "Создать его?",
    declined: "Хорошо, без напоминания.",
    created: (id) => `Создано: ${id}.`,
    passedShort: "Это время уже прошло; ничего не создано.",
    passed: (at, zone, a, b) => `Это время уже прошло (${at} по поясу ${zone}); ничего не создано. Попробуйте ${a} или ${b}.`,
  },
  zone: {
    show: (zone, offset, isDefault) =>
      `Часовой пояс: ${zone} (${offset}${isDefault ? ", по умолчанию" : ""}). Измените его командой /timezone <название IANA>, например /timezone America/New_York.`,
    set: (zone, offset, isDefault, now) => `Часовой пояс изменён на ${zone} (${offset}${isDefault ? ", по умолчанию" : ""}). Сейчас ${now}.`,
    recurringFollow: (n) =>
      `${n} ${plural(n, "повторяющаяся задача теперь идёт", "повторяющиеся задачи теперь идут", "повторяющихся задач теперь идут")} по этому поясу`,
    oneOffsKeep: (n, times) =>
      `${n} ${plural(n, "разовая задача сохраняет своё время", "разовые задачи сохраняют своё время", "разовых задач сохраняют своё время")} (здесь теперь ${times})`,
    more: (n) => `ещё ${n}`,
    and: (items) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} и ${items[items.length - 1]}`),
    setShort: (zone) => `Часовой пояс изменён на ${zone}.`,
    unknown: (typed) => `Не знаю часового пояса или места «${typed}». Попробуйте /timezone Berlin или /timezone America/New_York.`,
    offset: (typed) =>
      `«${typed}» — это смещение от UTC; сейчас на нём вот эти пояса. Выберите свой: пояс переходит на летнее время, а фиксированное смещение — нет.`,
    several: (typed) => `В «${typed}» больше одного часового пояса. Выберите свой или отправьте /timezone и ваш город.`,
  },
  status: {
    jobs: "Задачи",
    zone: "Часовой пояс",
    default: "по умолчанию",
    agent: "Агент",
    runner: "Исполнитель",
    notConfigured: "не настроен",
    blocked: "**Доставка:** была заблокирована до этого сообщения (бот не мог достучаться до этого чата)",
  },
  nonText: "Я понимаю только текстовые сообщения.",
};
