// @ts-check
/** @module The page's words in Russian (вы), key for key as en.js; loaded when a chat speaks Russian. */

/**
 * The form of a word after the number `n`: 1, 21, 101 take `one`; 2–4, 22–24 take `few`; 0, 5–20 (11–14 among
 * them) and the rest take `many`.
 * @param {number} n @param {string} one @param {string} few @param {string} many
 */
function plural(n, one, few, many) {
  const [ten, hundred] = [n % 10, n % 100];
  if (ten === 1 && hundred !== 11) return one;
  return ten >= 2 && ten <= 4 && (hundred < 12 || hundred > 14) ? few : many;
}

/** The filters' names, which the list's no-match sentence names too. */
const CATEGORY = { "one-time": "Разовые", recurring: "Повторяющиеся", monitoring: "Наблюдение", triggered: "По хуку" };

/** @type {import("../texts.js").Texts} */
const texts = {
  pageTitle: "Планировщик · Cuckoo",
  scheduler: "Планировщик",
  signOut: "Выйти",
  loading: "Загрузка…",
  signIn: "Войти",
  signInAbout: "Введите токен администратора (секрет `ADMIN_TOKEN`). Страница хранит подписанную сессию 12 часов, а сам токен — никогда.",
  adminToken: "Токен администратора",
  jobs: "Задачи",
  chat: "Чат",
  chatId: "ID чата",
  open: "Открыть",
  changeZone: "Сменить пояс",
  changeQuiet: "Изменить тихие часы",
  searchJobs: "Поиск задач",
  create: "Создать",
  category: "Категория",
  all: "Все",
  oneTime: CATEGORY["one-time"],
  recurring: CATEGORY.recurring,
  monitoring: CATEGORY.monitoring,
  triggered: CATEGORY.triggered,
  emptyTitle: "Пока ничего не запланировано",
  emptyIntro:
    "Задача будит агента чата в выбранное вами время: один раз, по расписанию или когда скрипт-наблюдатель что-то находит. Начните с нуля или с одного из этих вариантов.",
  createJob: "Создать задачу",
  suggestionsLabel: "Варианты",
  conversation: "Переписка",
  transcriptAbout: "Режим транскрипта: токена бота нет, поэтому чат ведётся здесь. Пишите от имени пользователя чата.",
  transcript: "Транскрипт",
  message: "Сообщение",
  send: "Отправить",
  telegramChatId: "ID чата в Telegram",
  name: "Название",
  kind: "Тип",
  prompt: "Промпт",
  watcher: "Наблюдатель",
  timeout: "Тайм-аут в секундах",
  schedule: "Расписание",
  scheduleHint:
    "Словами, как вы сказали бы боту (`завтра в 9`, `каждый второй вторник в 10`, `every day at 8`), выражение cron (`0 8 * * 1-5`), дата и время (`2026-12-01 09:00`), задержка (`через 20 минут`, `20m`) или правило (`RRULE:FREQ=DAILY;INTERVAL=3`), в часовом поясе чата.",
  nextRuns: "Ближайшие запуски",
  cancel: "Отмена",
  save: "Сохранить",
  history: "История",
  close: "Закрыть",
  zoneTitle: "Смена часового пояса",
  timeZone: "Часовой пояс",
  zoneHint:
    "Город или страна (`Berlin`) либо название IANA, например `Europe/Berlin`; пусто — пояс по умолчанию. Повторяющиеся задачи следуют за поясом; разовые сохраняют свой момент.",
  saveZone: "Сохранить пояс",
  quietHours: "Тихие часы",
  from: "С",
  to: "До",
  turnOff: "Выключить",
  saveQuiet: "Сохранить тихие часы",
  keepIt: "Оставить",
  delete: "Удалить",
  hookOnly: "Запускать только при вызове хука",
  hookOnlyHint:
    "Без расписания: задача запускается каждый раз, когда вызывают её хук — секретный URL. Новая задача получает хук при сохранении; URL показывается один раз.",
  hookAbout:
    "Хук — это секретный URL, который запускает задачу: отправьте на него JSON или текст методом POST, и тело запроса станет входными данными запуска.",
  hookUrl: "URL",
  hookEmail: "Адрес почты",
  copy: "Копировать",
  copyUrl: "Копировать URL",
  copyEmail: "Копировать адрес почты",
  shownOnce: "Показывается один раз: любой, у кого есть этот адрес, может запустить задачу. Храните его в секрете.",
  revoke: "Отозвать",

  tryAgain: "Повторить",
  loadingJobs: "Загрузка задач…",
  zoneLine: (zone) => `Часовой пояс: ${zone}`,
  jobsNotLoaded: (why) => `Не удалось загрузить задачи: ${why}`,
  noJobs: (q, category) => `${q !== "" ? `Нет задач по запросу «${q}»` : "Нет задач"}${category ? ` в категории «${CATEGORY[category]}»` : ""}.`,
  showAllJobs: "Показать все задачи",
  deleteTitle: (name) => `Удалить «${name}»?`,
  deleteText: "Задача и её история будут удалены; уже идущий запуск не остановится.",
  notAChat: (shown) => `В адресе указано «${shown}», а это не ID чата вида 123456789 или -1001234567890; выберите чат выше.`,
  chatsNotLoaded: (why) => `Не удалось загрузить чаты: ${why}`,
  readOnly: "Только просмотр: задачи группы меняют её администраторы",
  sessionEnded: "Сессия закончилась, и её не удалось продлить; закройте планировщик и снова откройте его из бота.",
  openDevMode: "Открытый режим разработки",
  cannotStart: (why) => `Планировщик не может запуститься: ${why}`,
  named: (verb, name) => `${verb}: ${name}`,
  cron: (expression) => `Cron ${expression}`,
  rule: (rrule) => `Правило ${rrule}`,
  running: "Выполняется",
  paused: "На паузе",
  lastSkipped: "пропущен (повтор в следующий раз)",
  lastHeld: "задержан (превышен дневной бюджет пробуждений)",
  lastRun: (status, when) => `Последний запуск: ${status}, ${when}`,
  notRunYet: "Ещё не запускалась",
  noNextRun: "Следующего запуска нет",
  noneWhilePaused: "Следующий запуск: нет, пока задача на паузе",
  nextRun: (at, distance) => `Следующий запуск: ${at} (${distance})`,
  postsInTopic: (id) => `Пишет в тему ${id}`,
  runNow: "Запустить сейчас",
  pause: "Приостановить",
  resume: "Возобновить",
  edit: "Изменить",
  hook: "Хук",
  hasHook: "Есть хук",
  whenHookCalled: "Когда вызывают её хук",
  noHookToRun: "Хука нет: задачу ничто не запустит, пока его не создать",
  // Said of a run (запуск).
  statuses: {
    delivered: "доставлен",
    silent: "без сообщения",
    matched: "сработал",
    failed: "ошибка",
    skipped: "пропущен",
    transient: "временный сбой",
    over_budget: "сверх бюджета",
  },

  jobCount: (n) => `${n} ${plural(n, "задача", "задачи", "задач")}`,
  blocked: "заблокирован",
  noJobsYet: "задач пока нет",
  chooseChat: "Выберите чат",
  badChatId: "ID чата — это десятичный ID Telegram, например 123456789 или -1001234567890.",

  createTitle: "Новая задача",
  editTitle: (name) => `Изменить «${name}»`,
  inChat: (chatId, zone) => `Чат ${chatId}, время по поясу ${zone}.`,
  timesIn: (zone) => `Время по поясу ${zone}.`,
  command: "Команда",
  typeSchedule: "Введите расписание, чтобы увидеть, когда задача запустится.",
  understood: (said, next, more) => `${said} · далее: ${next}${more ? "…" : ""}`,
  noPreview: "Предпросмотр появится, когда расписание удастся прочитать.",
  giveChatId: "Укажите десятичный ID чата в Telegram, например 123456789.",
  scheduleRequired:
    "Нужно расписание: слова вроде по будням в 8:30, выражение cron вроде 0 8 * * 1-5, дата и время вроде 2026-12-01 09:00 или задержка вроде 20m.",

  hookTitle: (name) => `Хук задачи «${name}»`,
  hookYes: "У этой задачи есть хук. Новый заменяет его: старый URL перестаёт работать.",
  hookNo: "У этой задачи нет хука.",
  makeHook: "Создать хук",
  replaceHook: "Заменить хук",
  copied: "Скопировано.",
  copyFailed: "Буфер обмена здесь недоступен: текст выделен, скопируйте его сами.",

  historyOf: (name) => `История «${name}»`,
  loadingRuns: "Загрузка запусков…",
  runs: "Запуски",
  noRuns: "Запусков пока не было.",
  settled: "завершён",
  inFlight: "выполняется",
  runByHand: "запущен вручную",
  late: "с опозданием",
  timedOut: "время истекло",
  exit: (code) => `код ${code}`,

  quietLine: (hours) => `Тихие часы: ${hours}`,
  quietOff: "выключены",
  quietAbout: (zone) =>
    `Сообщения, отправленные в это время, приходят без звука уведомления; ничего не задерживается и не откладывается. Время указано в часовом поясе чата, ${zone}; если конец раньше начала, интервал переходит через полночь.`,

  zoneOffset: (place) => `«${place}» — это смещение; сейчас на нём вот эти пояса. Выберите свой:`,
  zoneSeveral: (place) => `В «${place}» больше одного часового пояса. Выберите свой:`,
  deviceZone: (device, zone) => `На этом устройстве пояс ${device}; время чата — по поясу ${zone}.`,
  useZone: (zone) => `Использовать ${zone}`,

  who: { user: "Вы", bot: "Бот", prompt: "Промпт агенту", tool: "Вызов инструмента" },
  buttons: "Кнопки",
  noMessages: "Сообщений пока нет.",

  use: "Использовать",
  suggestions: [
    {
      title: "Сводка почты по будням",
      schedule: "по будням в 08:00",
      text: "Кратко перескажите, что пришло за ночь и на что нужно ответить сегодня.",
    },
    { title: "Напомнить через 20 минут", schedule: "через 20 минут", text: "Напомните мне вынуть бельё из стиральной машины." },
    {
      title: "Итоги недели по пятницам",
      schedule: "каждую пятницу в 17:00",
      text: "Спросите меня, что удалось на этой неделе и что взять с собой в следующую.",
    },
  ],

  underAMinute: "меньше чем через минуту",
  justNow: "только что",
  ahead: (span) => `через ${span}`,
  ago: (span) => `${span} назад`,
  minutes: (n) => `${n} мин`,
  hours: (n) => `${n} ч`,
  days: (n) => `${n} ${plural(n, "день", "дня", "дней")}`,
  lastRunLeft: "последний запуск",
  runsLeft: (n) => `${plural(n, "остался", "осталось", "осталось")} ${n} ${plural(n, "запуск", "запуска", "запусков")}`,
  until: (date) => `до ${date}`,

  noAnswer: "Сервер не ответил за 15 секунд.",
  unreachable: "Не удалось связаться с сервером; проверьте подключение.",
  notJson: (status) => `Сервер ответил ${status}, но не в формате JSON.`,
  answered: (status) => `Сервер ответил ${status}.`,
  outsideTelegram: "Откройте планировщик из бота в Telegram (кнопка меню или «Открыть планировщик» под /jobs): Telegram выполнит вход.",
};

export default texts;
