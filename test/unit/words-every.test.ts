/**
 * `/every` as people say it (docs/telegram.md, issue 24 item 4), through the one parser with `recurring` (as `/every`
 * reads): in each of the eight languages, every form of the issue (everyday ones, intervals, positions in a month,
 * exceptions, several times, ends and starts) with the exact schedule it makes, cron when cron can and a rule
 * with its local start otherwise, the phrase read and the text after it. Read in Europe/Berlin on Tuesday 1 December
 * 2026 at 10:00:37, so "the next Tuesday at 10" is 8 December and "31 dec" this year's.
 */
import { describe, expect, it } from "vitest";
import { readSchedule } from "../../src/words";
import { dayField } from "../../src/words/form";
import { scheduleLine } from "./schedule-line";

/** Tuesday 1 December 2026, 10:00:37 in Berlin (UTC+1 all December). */
const NOW = Date.parse("2026-12-01T09:00:37.123Z");
const ZONE = "Europe/Berlin";

/** What `/every` makes of `text`: `<schedule> | <phrase> | <rest>`, or `<problem>: <phrase>`. */
async function every(text: string, language?: string, now = NOW, zone = ZONE): Promise<string> {
  const r = await readSchedule(text, { zone, now, language, recurring: true });
  if (!r.ok) return `${r.problem.kind}: ${"phrase" in r.problem ? r.problem.phrase : ""}`;
  return `${scheduleLine(r.value)} | ${r.value.phrase} | ${r.value.rest}`;
}

const PHRASES: Record<string, [string, string][]> = {
  en: [
    ["every day at 8 summarise news", "cron 0 8 * * * | every day at 8 | summarise news"],
    ["day at 8 summarise news", "cron 0 8 * * * | day at 8 | summarise news"],
    ["weekdays at 8:30 check inbox", "cron 30 8 * * 1-5 | weekdays at 8:30 | check inbox"],
    ["every monday 9:00 standup", "cron 0 9 * * 1 | every monday 9:00 | standup"],
    ["monday 9:00 standup", "cron 0 9 * * 1 | monday 9:00 | standup"],
    ["every 15 minutes stretch", "cron */15 * * * * | every 15 minutes | stretch"],
    ["every hour drink water", "cron 0 * * * * | every hour | drink water"],
    ["every month on the 1st at 9 pay rent", "cron 0 9 1 * * | every month on the 1st at 9 | pay rent"],
    ["mon,wed,fri at 18:00 gym", "cron 0 18 * * 1,3,5 | mon,wed,fri at 18:00 | gym"],
    ["every 90 minutes stretch", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | every 90 minutes | stretch"],
    ["every 3 days at 9 water", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | every 3 days at 9 | water"],
    ["every other tuesday at 10 review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | every other tuesday at 10 | review"],
    ["other tuesday at 10 review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | other tuesday at 10 | review"],
    ["every 2 weeks on monday plan", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | every 2 weeks on monday | plan"],
    ["the first monday of every month report", "cron 0 9 * * 1#1 | the first monday of every month | report"],
    ["the last friday of the month at 17:00 invoices", "cron 0 17 * * 5L | the last friday of the month at 17:00 | invoices"],
    ["on the last day of every month close", "cron 0 9 L * * | on the last day of every month | close"],
    ["every month on the 15th pay", "cron 0 9 15 * * | every month on the 15th | pay"],
    ["every weekday except friday gym", "cron 0 9 * * 1-4 | every weekday except friday | gym"],
    ["twice a day at 9 and 18 pills", "cron 0 9,18 * * * | twice a day at 9 and 18 | pills"],
    ["every day at 8 until 31 dec news", "cron 0 8 * * * until 2026-12-31T23:59 | every day at 8 until 31 dec | news"],
    ["every day at 8 for 10 times news", "cron 0 8 * * * ×10 | every day at 8 for 10 times | news"],
    ["every day at 8 10 times news", "cron 0 8 * * * ×10 | every day at 8 10 times | news"],
    ["every monday at 9 starting next monday standup", "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | every monday at 9 starting next monday | standup"],
    ["every day at 8 from 1 jan news", "rule FREQ=DAILY from 2027-01-01T08:00 | every day at 8 from 1 jan | news"],
    ["the last working day of the month at 16:00 report", "cron 0 16 LW * * | the last working day of the month at 16:00 | report"],
    ["the first working day of the month report", "cron 0 9 1W * * | the first working day of the month | report"],
    ["every 45 minutes stretch", "rule FREQ=MINUTELY;INTERVAL=45 from 2026-12-01T10:00 | every 45 minutes | stretch"],
    ["8am pills", "cron 0 8 * * * | 8am | pills"],
    ["every day 3 pills", "cron 0 9 * * * | every day | 3 pills"],
    ["every day at 8 amazing things", "cron 0 8 * * * | every day at 8 | amazing things"],
    ["mon, wed and fri at 6pm gym", "cron 0 18 * * 1,3,5 | mon, wed and fri at 6pm | gym"],
    ["tuesday to thursday at noon call", "cron 0 12 * * 2-4 | tuesday to thursday at noon | call"],
    ["fri-mon at 9 long weekend", "cron 0 9 * * 0,1,5,6 | fri-mon at 9 | long weekend"],
    ["the 15th of the month at 9 invoice", "cron 0 9 15 * * | the 15th of the month at 9 | invoice"],
    ["monthly on the 28th bills", "cron 0 9 28 * * | monthly on the 28th | bills"],
    ["at 9:30 on mon,thu gym", "cron 30 9 * * 1,4 | at 9:30 on mon,thu | gym"],
    ["every second tuesday x", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T09:00 | every second tuesday | x"],
    ["every year on 1 march x", "cron 0 9 1 3 * | every year on 1 march | x"],
    ["every 1st and 15th x", "cron 0 9 1,15 * * | every 1st and 15th | x"],
  ],
  de: [
    ["jeden Tag um 8 Zeitung", "cron 0 8 * * * | jeden Tag um 8 | Zeitung"],
    ["täglich um 8 Zeitung", "cron 0 8 * * * | täglich um 8 | Zeitung"],
    ["werktags um 8:30 Posteingang", "cron 30 8 * * 1-5 | werktags um 8:30 | Posteingang"],
    ["jeden Montag um 9 Standup", "cron 0 9 * * 1 | jeden Montag um 9 | Standup"],
    ["montags um 9 Standup", "cron 0 9 * * 1 | montags um 9 | Standup"],
    ["Montag um 9 Standup", "cron 0 9 * * 1 | Montag um 9 | Standup"],
    ["alle 15 Minuten dehnen", "cron */15 * * * * | alle 15 Minuten | dehnen"],
    ["jede Stunde trinken", "cron 0 * * * * | jede Stunde | trinken"],
    ["stündlich trinken", "cron 0 * * * * | stündlich | trinken"],
    ["alle 90 Minuten dehnen", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | alle 90 Minuten | dehnen"],
    ["alle 3 Tage um 9 gießen", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | alle 3 Tage um 9 | gießen"],
    ["jeden zweiten Dienstag um 10 Review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | jeden zweiten Dienstag um 10 | Review"],
    ["alle 2 Wochen am Montag planen", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | alle 2 Wochen am Montag | planen"],
    ["am ersten Montag im Monat Bericht", "cron 0 9 * * 1#1 | am ersten Montag im Monat | Bericht"],
    ["jeden ersten Montag des Monats Bericht", "cron 0 9 * * 1#1 | jeden ersten Montag des Monats | Bericht"],
    ["am letzten Freitag im Monat um 17:00 Rechnungen", "cron 0 17 * * 5L | am letzten Freitag im Monat um 17:00 | Rechnungen"],
    ["am letzten Tag des Monats abschließen", "cron 0 9 L * * | am letzten Tag des Monats | abschließen"],
    ["am 15. jeden Monats zahlen", "cron 0 9 15 * * | am 15. jeden Monats | zahlen"],
    ["jeden Monat am 15. zahlen", "cron 0 9 15 * * | jeden Monat am 15. | zahlen"],
    ["jeden Werktag außer Freitag Sport", "cron 0 9 * * 1-4 | jeden Werktag außer Freitag | Sport"],
    ["zweimal täglich um 9 und 18 Uhr Tabletten", "cron 0 9,18 * * * | zweimal täglich um 9 und 18 Uhr | Tabletten"],
    ["zweimal am Tag um 9 und 18 Tabletten", "cron 0 9,18 * * * | zweimal am Tag um 9 und 18 | Tabletten"],
    ["jeden Tag um 8 bis 31. Dezember Zeitung", "cron 0 8 * * * until 2026-12-31T23:59 | jeden Tag um 8 bis 31. Dezember | Zeitung"],
    ["jeden Tag um 8 10 mal Zeitung", "cron 0 8 * * * ×10 | jeden Tag um 8 10 mal | Zeitung"],
    ["jeden Tag um 8 10-mal Zeitung", "cron 0 8 * * * ×10 | jeden Tag um 8 10-mal | Zeitung"],
    ["jeden Montag um 9 ab nächstem Montag Standup", "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | jeden Montag um 9 ab nächstem Montag | Standup"],
    ["jeden Montag um 9 ab nächsten Montag Standup", "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | jeden Montag um 9 ab nächsten Montag | Standup"],
    ["jeden Tag um 8 ab 1. Januar Zeitung", "rule FREQ=DAILY from 2027-01-01T08:00 | jeden Tag um 8 ab 1. Januar | Zeitung"],
    ["am letzten Werktag des Monats um 16 Uhr Bericht", "cron 0 16 LW * * | am letzten Werktag des Monats um 16 Uhr | Bericht"],
    ["von Montag bis Freitag um 7 Zug", "cron 0 7 * * 1-5 | von Montag bis Freitag um 7 | Zug"],
    ["montags bis freitags um 7 Zug", "cron 0 7 * * 1-5 | montags bis freitags um 7 | Zug"],
  ],
  fr: [
    ["tous les jours à 8h café", "cron 0 8 * * * | tous les jours à 8h | café"],
    ["chaque jour à 8h café", "cron 0 8 * * * | chaque jour à 8h | café"],
    ["en semaine à 8h30 courriel", "cron 30 8 * * 1-5 | en semaine à 8h30 | courriel"],
    ["tous les lundis à 9h réunion", "cron 0 9 * * 1 | tous les lundis à 9h | réunion"],
    ["le lundi à 9h réunion", "cron 0 9 * * 1 | le lundi à 9h | réunion"],
    ["lundi à 9h réunion", "cron 0 9 * * 1 | lundi à 9h | réunion"],
    ["toutes les 15 minutes étirer", "cron */15 * * * * | toutes les 15 minutes | étirer"],
    ["toutes les heures boire", "cron 0 * * * * | toutes les heures | boire"],
    ["toutes les 90 minutes étirer", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | toutes les 90 minutes | étirer"],
    ["tous les 3 jours à 9h arroser", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | tous les 3 jours à 9h | arroser"],
    ["tous les deux mardis à 10h revue", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | tous les deux mardis à 10h | revue"],
    ["toutes les 2 semaines le lundi planifier", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | toutes les 2 semaines le lundi | planifier"],
    ["le premier lundi du mois rapport", "cron 0 9 * * 1#1 | le premier lundi du mois | rapport"],
    ["le dernier vendredi du mois à 17h factures", "cron 0 17 * * 5L | le dernier vendredi du mois à 17h | factures"],
    ["le dernier jour du mois clôturer", "cron 0 9 L * * | le dernier jour du mois | clôturer"],
    ["le 15 de chaque mois payer", "cron 0 9 15 * * | le 15 de chaque mois | payer"],
    ["tous les mois le 15 payer", "cron 0 9 15 * * | tous les mois le 15 | payer"],
    ["tous les jours de semaine sauf le vendredi sport", "cron 0 9 * * 1-4 | tous les jours de semaine sauf le vendredi | sport"],
    ["deux fois par jour à 9h et 18h pilules", "cron 0 9,18 * * * | deux fois par jour à 9h et 18h | pilules"],
    ["tous les jours à 8h jusqu'au 31 décembre café", "cron 0 8 * * * until 2026-12-31T23:59 | tous les jours à 8h jusqu'au 31 décembre | café"],
    ["tous les jours à 8h 10 fois café", "cron 0 8 * * * ×10 | tous les jours à 8h 10 fois | café"],
    [
      "tous les lundis à 9h à partir de lundi prochain réunion",
      "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | tous les lundis à 9h à partir de lundi prochain | réunion",
    ],
    ["tous les jours à 8h à partir du 1er janvier café", "rule FREQ=DAILY from 2027-01-01T08:00 | tous les jours à 8h à partir du 1er janvier | café"],
    ["du lundi au vendredi à 7h train", "cron 0 7 * * 1-5 | du lundi au vendredi à 7h | train"],
  ],
  es: [
    ["todos los días a las 8 café", "cron 0 8 * * * | todos los días a las 8 | café"],
    ["cada día a las 8 café", "cron 0 8 * * * | cada día a las 8 | café"],
    ["entre semana a las 8:30 correo", "cron 30 8 * * 1-5 | entre semana a las 8:30 | correo"],
    ["todos los lunes a las 9 reunión", "cron 0 9 * * 1 | todos los lunes a las 9 | reunión"],
    ["los lunes a las 9 reunión", "cron 0 9 * * 1 | los lunes a las 9 | reunión"],
    ["lunes a las 9 reunión", "cron 0 9 * * 1 | lunes a las 9 | reunión"],
    ["cada 15 minutos estirar", "cron */15 * * * * | cada 15 minutos | estirar"],
    ["cada hora beber", "cron 0 * * * * | cada hora | beber"],
    ["cada 90 minutos estirar", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | cada 90 minutos | estirar"],
    ["cada 3 días a las 9 regar", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | cada 3 días a las 9 | regar"],
    ["cada dos martes a las 10 revisión", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | cada dos martes a las 10 | revisión"],
    ["cada 2 semanas el lunes planificar", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | cada 2 semanas el lunes | planificar"],
    ["el primer lunes de cada mes informe", "cron 0 9 * * 1#1 | el primer lunes de cada mes | informe"],
    ["el último viernes del mes a las 17:00 facturas", "cron 0 17 * * 5L | el último viernes del mes a las 17:00 | facturas"],
    ["el último día del mes cerrar", "cron 0 9 L * * | el último día del mes | cerrar"],
    ["el día 15 de cada mes pagar", "cron 0 9 15 * * | el día 15 de cada mes | pagar"],
    ["cada mes el día 15 pagar", "cron 0 9 15 * * | cada mes el día 15 | pagar"],
    ["cada día laborable excepto el viernes deporte", "cron 0 9 * * 1-4 | cada día laborable excepto el viernes | deporte"],
    ["dos veces al día a las 9 y a las 18 pastillas", "cron 0 9,18 * * * | dos veces al día a las 9 y a las 18 | pastillas"],
    ["todos los días a las 8 hasta el 31 de diciembre café", "cron 0 8 * * * until 2026-12-31T23:59 | todos los días a las 8 hasta el 31 de diciembre | café"],
    ["todos los días a las 8 10 veces café", "cron 0 8 * * * ×10 | todos los días a las 8 10 veces | café"],
    [
      "todos los lunes a las 9 a partir del próximo lunes reunión",
      "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | todos los lunes a las 9 a partir del próximo lunes | reunión",
    ],
    ["todos los días a las 8 desde el 1 de enero café", "rule FREQ=DAILY from 2027-01-01T08:00 | todos los días a las 8 desde el 1 de enero | café"],
    ["de lunes a viernes a las 7 tren", "cron 0 7 * * 1-5 | de lunes a viernes a las 7 | tren"],
  ],
  pt: [
    ["todos os dias às 8 café", "cron 0 8 * * * | todos os dias às 8 | café"],
    ["todo dia às 8 café", "cron 0 8 * * * | todo dia às 8 | café"],
    ["dias úteis às 8:30 email", "cron 30 8 * * 1-5 | dias úteis às 8:30 | email"],
    ["toda segunda às 9 reunião", "cron 0 9 * * 1 | toda segunda às 9 | reunião"],
    ["todas as segundas-feiras às 9 reunião", "cron 0 9 * * 1 | todas as segundas-feiras às 9 | reunião"],
    ["às segundas às 9 reunião", "cron 0 9 * * 1 | às segundas às 9 | reunião"],
    ["segunda às 9 reunião", "cron 0 9 * * 1 | segunda às 9 | reunião"],
    ["a cada 15 minutos alongar", "cron */15 * * * * | a cada 15 minutos | alongar"],
    ["de hora em hora beber", "cron 0 * * * * | de hora em hora | beber"],
    ["a cada 90 minutos alongar", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | a cada 90 minutos | alongar"],
    ["a cada 3 dias às 9 regar", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | a cada 3 dias às 9 | regar"],
    ["a cada duas terças às 10 revisão", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | a cada duas terças às 10 | revisão"],
    ["a cada 2 semanas na segunda planejar", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | a cada 2 semanas na segunda | planejar"],
    ["na primeira segunda-feira do mês relatório", "cron 0 9 * * 1#1 | na primeira segunda-feira do mês | relatório"],
    ["na última sexta-feira do mês às 17:00 faturas", "cron 0 17 * * 5L | na última sexta-feira do mês às 17:00 | faturas"],
    ["no último dia do mês fechar", "cron 0 9 L * * | no último dia do mês | fechar"],
    ["no dia 15 de cada mês pagar", "cron 0 9 15 * * | no dia 15 de cada mês | pagar"],
    ["todo dia útil exceto sexta academia", "cron 0 9 * * 1-4 | todo dia útil exceto sexta | academia"],
    ["duas vezes por dia às 9 e às 18 remédio", "cron 0 9,18 * * * | duas vezes por dia às 9 e às 18 | remédio"],
    ["todos os dias às 8 até 31 de dezembro café", "cron 0 8 * * * until 2026-12-31T23:59 | todos os dias às 8 até 31 de dezembro | café"],
    ["todos os dias às 8 10 vezes café", "cron 0 8 * * * ×10 | todos os dias às 8 10 vezes | café"],
    [
      "toda segunda às 9 a partir da próxima segunda reunião",
      "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | toda segunda às 9 a partir da próxima segunda | reunião",
    ],
    ["todos os dias às 8 a partir de 1 de janeiro café", "rule FREQ=DAILY from 2027-01-01T08:00 | todos os dias às 8 a partir de 1 de janeiro | café"],
    ["de segunda a sexta às 7 trem", "cron 0 7 * * 1-5 | de segunda a sexta às 7 | trem"],
  ],
  it: [
    ["ogni giorno alle 8 caffè", "cron 0 8 * * * | ogni giorno alle 8 | caffè"],
    ["tutti i giorni alle 8 caffè", "cron 0 8 * * * | tutti i giorni alle 8 | caffè"],
    ["nei giorni feriali alle 8:30 posta", "cron 30 8 * * 1-5 | nei giorni feriali alle 8:30 | posta"],
    ["ogni lunedì alle 9 riunione", "cron 0 9 * * 1 | ogni lunedì alle 9 | riunione"],
    ["il lunedì alle 9 riunione", "cron 0 9 * * 1 | il lunedì alle 9 | riunione"],
    ["lunedì alle 9 riunione", "cron 0 9 * * 1 | lunedì alle 9 | riunione"],
    ["ogni 15 minuti stretching", "cron */15 * * * * | ogni 15 minuti | stretching"],
    ["ogni ora bere", "cron 0 * * * * | ogni ora | bere"],
    ["ogni 90 minuti stretching", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | ogni 90 minuti | stretching"],
    ["ogni 3 giorni alle 9 annaffiare", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | ogni 3 giorni alle 9 | annaffiare"],
    ["ogni due martedì alle 10 revisione", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | ogni due martedì alle 10 | revisione"],
    ["ogni 2 settimane il lunedì pianificare", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | ogni 2 settimane il lunedì | pianificare"],
    ["il primo lunedì del mese rapporto", "cron 0 9 * * 1#1 | il primo lunedì del mese | rapporto"],
    ["l'ultimo venerdì del mese alle 17:00 fatture", "cron 0 17 * * 5L | l'ultimo venerdì del mese alle 17:00 | fatture"],
    ["l'ultimo giorno del mese chiudere", "cron 0 9 L * * | l'ultimo giorno del mese | chiudere"],
    ["il 15 di ogni mese pagare", "cron 0 9 15 * * | il 15 di ogni mese | pagare"],
    ["ogni mese il 15 pagare", "cron 0 9 15 * * | ogni mese il 15 | pagare"],
    ["ogni giorno feriale tranne il venerdì palestra", "cron 0 9 * * 1-4 | ogni giorno feriale tranne il venerdì | palestra"],
    ["due volte al giorno alle 9 e alle 18 pillole", "cron 0 9,18 * * * | due volte al giorno alle 9 e alle 18 | pillole"],
    ["ogni giorno alle 8 fino al 31 dicembre caffè", "cron 0 8 * * * until 2026-12-31T23:59 | ogni giorno alle 8 fino al 31 dicembre | caffè"],
    ["ogni giorno alle 8 per 10 volte caffè", "cron 0 8 * * * ×10 | ogni giorno alle 8 per 10 volte | caffè"],
    [
      "ogni lunedì alle 9 a partire da lunedì prossimo riunione",
      "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | ogni lunedì alle 9 a partire da lunedì prossimo | riunione",
    ],
    ["ogni giorno alle 8 dal 1 gennaio caffè", "rule FREQ=DAILY from 2027-01-01T08:00 | ogni giorno alle 8 dal 1 gennaio | caffè"],
    ["dal lunedì al venerdì alle 7 treno", "cron 0 7 * * 1-5 | dal lunedì al venerdì alle 7 | treno"],
  ],
  nl: [
    ["elke dag om 8 uur koffie", "cron 0 8 * * * | elke dag om 8 uur | koffie"],
    ["dagelijks om 8 koffie", "cron 0 8 * * * | dagelijks om 8 | koffie"],
    ["op werkdagen om 8:30 mail", "cron 30 8 * * 1-5 | op werkdagen om 8:30 | mail"],
    ["elke maandag om 9 overleg", "cron 0 9 * * 1 | elke maandag om 9 | overleg"],
    ["maandags om 9 overleg", "cron 0 9 * * 1 | maandags om 9 | overleg"],
    ["maandag om 9 overleg", "cron 0 9 * * 1 | maandag om 9 | overleg"],
    ["elke 15 minuten rekken", "cron */15 * * * * | elke 15 minuten | rekken"],
    ["elk uur drinken", "cron 0 * * * * | elk uur | drinken"],
    ["om de 15 minuten rekken", "cron */15 * * * * | om de 15 minuten | rekken"],
    ["elke 90 minuten rekken", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | elke 90 minuten | rekken"],
    ["elke 3 dagen om 9 water", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | elke 3 dagen om 9 | water"],
    ["elke tweede dinsdag om 10 review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | elke tweede dinsdag om 10 | review"],
    ["om de 2 weken op maandag plannen", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | om de 2 weken op maandag | plannen"],
    ["elke 2 weken op maandag plannen", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | elke 2 weken op maandag | plannen"],
    ["de eerste maandag van de maand rapport", "cron 0 9 * * 1#1 | de eerste maandag van de maand | rapport"],
    ["de laatste vrijdag van de maand om 17:00 facturen", "cron 0 17 * * 5L | de laatste vrijdag van de maand om 17:00 | facturen"],
    ["de laatste dag van de maand afsluiten", "cron 0 9 L * * | de laatste dag van de maand | afsluiten"],
    ["de 15e van elke maand betalen", "cron 0 9 15 * * | de 15e van elke maand | betalen"],
    ["elke maand op de 15e betalen", "cron 0 9 15 * * | elke maand op de 15e | betalen"],
    ["elke werkdag behalve vrijdag sporten", "cron 0 9 * * 1-4 | elke werkdag behalve vrijdag | sporten"],
    ["twee keer per dag om 9 en 18 uur pillen", "cron 0 9,18 * * * | twee keer per dag om 9 en 18 uur | pillen"],
    ["tweemaal daags om 9 en 18 pillen", "cron 0 9,18 * * * | tweemaal daags om 9 en 18 | pillen"],
    ["elke dag om 8 tot 31 december koffie", "cron 0 8 * * * until 2026-12-31T23:59 | elke dag om 8 tot 31 december | koffie"],
    ["elke dag om 8 10 keer koffie", "cron 0 8 * * * ×10 | elke dag om 8 10 keer | koffie"],
    [
      "elke maandag om 9 vanaf volgende maandag overleg",
      "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | elke maandag om 9 vanaf volgende maandag | overleg",
    ],
    ["elke dag om 8 vanaf 1 januari koffie", "rule FREQ=DAILY from 2027-01-01T08:00 | elke dag om 8 vanaf 1 januari | koffie"],
    ["van maandag tot vrijdag om 7 trein", "cron 0 7 * * 1-5 | van maandag tot vrijdag om 7 | trein"],
  ],
  ru: [
    ["каждый день в 8 кофе", "cron 0 8 * * * | каждый день в 8 | кофе"],
    ["ежедневно в 8 кофе", "cron 0 8 * * * | ежедневно в 8 | кофе"],
    ["по будням в 8:30 почта", "cron 30 8 * * 1-5 | по будням в 8:30 | почта"],
    ["каждый понедельник в 9 планёрка", "cron 0 9 * * 1 | каждый понедельник в 9 | планёрка"],
    ["по понедельникам в 9 планёрка", "cron 0 9 * * 1 | по понедельникам в 9 | планёрка"],
    ["в понедельник в 9 планёрка", "cron 0 9 * * 1 | в понедельник в 9 | планёрка"],
    ["понедельник в 9 планёрка", "cron 0 9 * * 1 | понедельник в 9 | планёрка"],
    ["каждые 15 минут разминка", "cron */15 * * * * | каждые 15 минут | разминка"],
    ["каждый час пить", "cron 0 * * * * | каждый час | пить"],
    ["каждые 90 минут разминка", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | каждые 90 минут | разминка"],
    ["каждые 3 дня в 9 полить", "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | каждые 3 дня в 9 | полить"],
    ["каждый второй вторник в 10 обзор", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | каждый второй вторник в 10 | обзор"],
    ["каждые 2 недели в понедельник планировать", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | каждые 2 недели в понедельник | планировать"],
    ["в первый понедельник месяца отчёт", "cron 0 9 * * 1#1 | в первый понедельник месяца | отчёт"],
    ["в последнюю пятницу месяца в 17:00 счета", "cron 0 17 * * 5L | в последнюю пятницу месяца в 17:00 | счета"],
    ["в последний день месяца закрыть", "cron 0 9 L * * | в последний день месяца | закрыть"],
    ["15-го числа каждого месяца платить", "cron 0 9 15 * * | 15-го числа каждого месяца | платить"],
    ["каждый месяц 15-го платить", "cron 0 9 15 * * | каждый месяц 15-го | платить"],
    ["каждый будний день кроме пятницы спорт", "cron 0 9 * * 1-4 | каждый будний день кроме пятницы | спорт"],
    ["два раза в день в 9 и 18 таблетки", "cron 0 9,18 * * * | два раза в день в 9 и 18 | таблетки"],
    ["дважды в день в 9 и 18 таблетки", "cron 0 9,18 * * * | дважды в день в 9 и 18 | таблетки"],
    ["каждый день в 8 до 31 декабря кофе", "cron 0 8 * * * until 2026-12-31T23:59 | каждый день в 8 до 31 декабря | кофе"],
    ["каждый день в 8 10 раз кофе", "cron 0 8 * * * ×10 | каждый день в 8 10 раз | кофе"],
    [
      "каждый понедельник в 9 начиная со следующего понедельника планёрка",
      "rule FREQ=WEEKLY;BYDAY=MO from 2026-12-07T09:00 | каждый понедельник в 9 начиная со следующего понедельника | планёрка",
    ],
    ["каждый день в 8 с 1 января кофе", "rule FREQ=DAILY from 2027-01-01T08:00 | каждый день в 8 с 1 января | кофе"],
    ["с понедельника по пятницу в 7 поезд", "cron 0 7 * * 1-5 | с понедельника по пятницу в 7 | поезд"],
    [
      "раз в 2 недели по понедельникам в 9 планёрка",
      "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=MO from 2026-12-07T09:00 | раз в 2 недели по понедельникам в 9 | планёрка",
    ],
    ["через день в 9 полить", "rule FREQ=DAILY;INTERVAL=2 from 2026-12-02T09:00 | через день в 9 | полить"],
  ],
};

for (const [lang, rows] of Object.entries(PHRASES)) {
  describe(`${lang}: each form, with and without its own word for "every"`, () => {
    it.each(rows)("%s → %s", async (input, expected) => {
      expect(await every(input)).toBe(expected);
    });
    // The sender's language (Telegram's language_code) read first gives the same schedules.
    it.each(rows)(`%s, with language ${lang}`, async (input, expected) => {
      expect(await every(input, lang)).toBe(expected);
    });
  });
}

describe("more English forms", () => {
  const table: [string, string][] = [
    ["every minute ping", "cron * * * * * | every minute | ping"],
    ["every 2 hours ping", "cron 0 */2 * * * | every 2 hours | ping"],
    ["every 30 min ping", "cron */30 * * * * | every 30 min | ping"],
    ["every 120 minutes ping", "cron 0 */2 * * * | every 120 minutes | ping"],
    ["every 5 hours ping", "rule FREQ=HOURLY;INTERVAL=5 from 2026-12-01T10:00 | every 5 hours | ping"],
    ["every 15 minutes on weekdays ping", "cron */15 * * * 1-5 | every 15 minutes on weekdays | ping"],
    ["daily at 21:15 lights", "cron 15 21 * * * | daily at 21:15 | lights"],
    ["each day at 7am wake", "cron 0 7 * * * | each day at 7am | wake"],
    ["every day at 6:45 pm walk", "cron 45 18 * * * | every day at 6:45 pm | walk"],
    ["every day at noon lunch", "cron 0 12 * * * | every day at noon | lunch"],
    ["every day at midnight backup", "cron 0 0 * * * | every day at midnight | backup"],
    ["weekends at 10 brunch", "cron 0 10 * * 0,6 | weekends at 10 | brunch"],
    ["every sunday at 20:00 plan", "cron 0 20 * * 0 | every sunday at 20:00 | plan"],
    ["sat-sun at 10 sleep in", "cron 0 10 * * 0,6 | sat-sun at 10 | sleep in"],
    ["at 8 on weekdays news", "cron 0 8 * * 1-5 | at 8 on weekdays | news"],
    ["every day except sunday at 7 run", "cron 0 7 * * 1-6 | every day except sunday at 7 | run"],
    ["every week plan", "cron 0 9 * * 2 | every week | plan"],
    ["every month pay", "cron 0 9 1 * * | every month | pay"],
    ["every 3 months on the 1st pay", "rule FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1 from 2027-01-01T09:00 | every 3 months on the 1st | pay"],
    [
      "the second working day of the month report",
      "rule FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=2 from 2026-12-02T09:00 | the second working day of the month | report",
    ],
    ["the first and third monday of the month club", "rule FREQ=MONTHLY;BYDAY=1MO,3MO from 2026-12-07T09:00 | the first and third monday of the month | club"],
    [
      "the 1st and the last day of the month review",
      "rule FREQ=MONTHLY;BYMONTHDAY=1,-1 from 2026-12-31T09:00 | the 1st and the last day of the month | review",
    ],
    ["every year on 1 march taxes", "cron 0 9 1 3 * | every year on 1 march | taxes"],
    ["every 2 years on 1 march passport", "rule FREQ=YEARLY;INTERVAL=2;BYMONTH=3;BYMONTHDAY=1 from 2027-03-01T09:00 | every 2 years on 1 march | passport"],
    ["3 times a day at 8, 13 and 19 pills", "cron 0 8,13,19 * * * | 3 times a day at 8, 13 and 19 | pills"],
    ["twice a week on monday and thursday at 7 run", "cron 0 7 * * 1,4 | twice a week on monday and thursday at 7 | run"],
    ["every 3 days at 9 and 21 pills", "rule FREQ=DAILY;INTERVAL=3;BYHOUR=9,21;BYMINUTE=0 from 2026-12-01T21:00 | every 3 days at 9 and 21 | pills"],
    ["every day at 8 until 31 dec for 10 times news", "cron 0 8 * * * until 2026-12-31T23:59 ×10 | every day at 8 until 31 dec for 10 times | news"],
    ["every day at 8 until 15 jan 18:00 news", "cron 0 8 * * * until 2027-01-15T18:00 | every day at 8 until 15 jan 18:00 | news"],
    ["every 90 minutes starting tomorrow stretch", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-02T09:00 | every 90 minutes starting tomorrow | stretch"],
    ["every other week from 1 jan at 8 review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2027-01-05T08:00 | every other week from 1 jan at 8 | review"],
    // A bare number is a time only after "at"; "am" inside a word is not a meridiem; a comma does not carry "at" on.
    ["every day 3 pills", "cron 0 9 * * * | every day | 3 pills"],
    ["every day at 8 amazing things", "cron 0 8 * * * | every day at 8 | amazing things"],
    ["every day at 8, 3 pills", "cron 0 8 * * * | every day at 8 | 3 pills"],
    // Durations are intervals to /every.
    ["20m stretch", "cron */20 * * * * | 20m | stretch"],
    ["1h30m stretch", "rule FREQ=MINUTELY;INTERVAL=90 from 2026-12-01T10:00 | 1h30m | stretch"],
    ["PT2H drink", "cron 0 */2 * * * | PT2H | drink"],
    ["P2W review", "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T09:00 | P2W | review"],
    // Written forms are taken as they are.
    ['"0 8 * * 1-5" plan', 'cron 0 8 * * 1-5 | "0 8 * * 1-5" | plan'],
    ["@daily water", "cron @daily | @daily | water"],
    [
      "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU review",
      "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-01T09:00 | RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU | review",
    ],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await every(input)).toBe(expected);
  });
});

describe("the start of a rule is its first run, from the zone's own now", () => {
  it("takes today when the time is still ahead there, and the next one after it when not", async () => {
    // Tuesday 09:00 in Berlin: this Tuesday's 10:00 is still ahead.
    const early = Date.parse("2026-12-01T08:00:00Z");
    expect(await every("every other tuesday at 10 review", undefined, early)).toBe(
      "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-01T10:00 | every other tuesday at 10 | review",
    );
    expect(await every("every 3 days at 9:30 water", undefined, early)).toBe("rule FREQ=DAILY;INTERVAL=3 from 2026-12-01T09:30 | every 3 days at 9:30 | water");
    // The same instant is 03:00 on Tuesday in New York and 18:00 in Tokyo.
    expect(await every("every 3 days at 9 water", undefined, early, "America/New_York")).toBe(
      "rule FREQ=DAILY;INTERVAL=3 from 2026-12-01T09:00 | every 3 days at 9 | water",
    );
    expect(await every("every 3 days at 9 water", undefined, early, "Asia/Tokyo")).toBe(
      "rule FREQ=DAILY;INTERVAL=3 from 2026-12-02T09:00 | every 3 days at 9 | water",
    );
  });

  it("a start said is the first run on or after it", async () => {
    expect(await every("every other tuesday at 10 starting next monday review")).toBe(
      "rule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU from 2026-12-08T10:00 | every other tuesday at 10 starting next monday | review",
    );
    expect(await every("the last friday of the month at 17:00 from 1 jan invoices")).toBe(
      "rule FREQ=MONTHLY;BYDAY=-1FR from 2027-01-29T17:00 | the last friday of the month at 17:00 from 1 jan | invoices",
    );
  });

  it("an end is the close of that day in the chat's zone, across a DST change too", async () => {
    expect(await every("every day at 8 until 30 jun news")).toBe("cron 0 8 * * * until 2027-06-30T23:59 | every day at 8 until 30 jun | news");
    expect(await every("every day at 8 until 30 jun news", undefined, NOW, "America/New_York")).toBe(
      "cron 0 8 * * * until 2027-06-30T23:59 | every day at 8 until 30 jun | news",
    );
  });
});

describe("what is refused, with the part to quote", () => {
  const table: [string, string][] = [
    ["evry day at 8 x", "unreadable: evry"],
    ["money talk", "unreadable: money"],
    ["every day at 25 x", "unreadable: at 25"],
    ["weekdays at 8:75 x", "unreadable: at 8:75"],
    ["jeden Tag um 25 x", "unreadable: um 25"],
    ["until 31 dec x", "unreadable: until 31 dec"],
    // Times whose minutes differ: neither cron nor a rule holds 9:15 and 18:30 alone.
    ["every day at 9:15 and 18:30 x", "minutes: every day at 9:15 and 18:30"],
    ["twice a day at 9 x", "count: twice a day at 9"],
    ["twice a week on monday x", "count: twice a week on monday"],
    ["every day at 8 5000 times x", "runs: every day at 8 5000 times"],
    ["every day at 8 0 times x", "runs: every day at 8 0 times"],
    ["every 3 days at 9 until 1 dec x", "until: every 3 days at 9 until 1 dec"],
    ["every day on the 15th x", "conflict: every day on the 15th"],
    ["every monday on the 15th x", "conflict: every monday on the 15th"],
    ["every day except monday to sunday x", "conflict: every day except monday to sunday"],
    ["2026-12-02 09:00 x", "once: 2026-12-02 09:00"],
    ['"0 8 * *" x', "cron: 0 8 * *"],
  ];
  it.each(table)("%s → %s", async (input, expected) => {
    expect(await every(input)).toBe(expected);
  });
});

describe("the day-of-week field", () => {
  it("writes runs of three or more as ranges, the rest as lists, all seven as *", () => {
    expect(dayField(new Set([1, 2, 3, 4, 5]))).toBe("1-5");
    expect(dayField(new Set([1, 3, 5]))).toBe("1,3,5");
    expect(dayField(new Set([0, 6]))).toBe("0,6");
    expect(dayField(new Set([1, 2]))).toBe("1,2");
    expect(dayField(new Set([0, 1, 2, 3, 5]))).toBe("0-3,5");
    expect(dayField(new Set([0, 1, 2, 3, 4, 5, 6]))).toBe("*");
  });
});
