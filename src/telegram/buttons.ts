/**
 * @module The inline buttons the bot sends and reads back (docs/telegram.md), each a callback data of at most 64 bytes:
 * under an alert and a watcher's message Run now, Pause and Cancel (`r:`/`p:`/`c:` + the job id); under a prompt
 * job's message what a person does with a reminder, each naming the run the message came from (`<jobId>:<ms>`,
 * so a button outlives a one-off that is gone): after a one-off's run Done, 10 min, 1 h and Tomorrow 9:00
 * (`d:`, `s:10:`, `s:60:`, `s:t:` + the run), after a recurring job's Done, Snooze 1 h, Skip next and Pause
 * (`d:`, `s:60:`, `k:`, `p:` + the run), and once one was pressed, the one line that says what was done (`a:` +
 * the run); under an offered reminder Create and Cancel (`y:`/`n:` + the offer's id); under a question about the
 * zone, one button per zone (`z:` + the IANA name, at most 32 characters); under /jobs, Open scheduler opens the
 * Mini App (a `web_app` button in a private chat; in a group, where Telegram allows none, a link to the Mini App
 * naming the group). Buttons are rows of `{ text, data }`, `{ text, webApp }` or `{ text, url }`, as the
 * transcript keeps them; `keyboard` turns them into Telegram's markup.
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import { JOB_ID_ALPHABET, JOB_ID_PATTERN, randomId } from "../contracts/ids";
import { RUN_ID_PATTERN, readRunId } from "../contracts/run-id";
import type { Snooze } from "../jobs/snooze";
import type { ButtonRows } from "../schemas/chats";
import { ENGLISH, type Texts } from "../texts";

/**
 * The answer to a press that is no button of ours (unknown data, a chat the bot does not serve, a message it cannot
 * see): every press is answered once, or the user's button keeps spinning.
 */
export const INVALID_BUTTON = ENGLISH.t.buttons.invalid;

/** What a reply sends: Markdown, and the buttons under it when it has any; `jobId`, the job it created. */
/**
 * A command's reply: its Markdown and buttons, the job it made. `secret`: it shows a secret address, so the transcript
 * keeps `[shown once]` in place of the token; `privately`: in a group, what goes to the one who asked in a private
 * message (secret too), with `markdown` telling the group, or `privateRefused` when Telegram will not deliver it.
 */
export type Reply = {
  markdown: string;
  buttons?: ButtonRows;
  jobId?: string;
  secret?: true;
  privately?: string;
  privateRefused?: string;
  /** What `privately` is, as the log names it should it not go (`a hook's address`). */
  privateWhat?: string;
};

export type JobAction = "run" | "pause" | "cancel";

/** What a button under a prompt job's message does (`answered`: the line that replaced them). */
export type MessageAction =
  | { act: "done" }
  | { act: "snooze"; snooze: Snooze }
  | { act: "skip" }
  | { act: "pause" }
  | { act: "answered" }
  /** Under a message about missed runs (docs/time.md#missed-runs): run the latest now, or record them all skipped from `first`. */
  /** Under a notice ahead of a run: that run is skipped (a one-off's is not sent). */
  | { act: "skipOne" }
  | { act: "missedRun"; first: number }
  | { act: "missedSkip"; first: number };

/** A pressed button, read back from its data. */
export type Pressed =
  | { kind: "job"; action: JobAction; id: string }
  | { kind: "message"; action: MessageAction; runId: string; jobId: string }
  | { kind: "offer"; create: boolean; id: string }
  | { kind: "zone"; zone: string };

const PREFIX: Record<JobAction, string> = { run: "r", pause: "p", cancel: "c" };

/** Run now, Pause and Cancel under a job's message. */
export function jobButtons(jobId: string, t: Texts["buttons"] = ENGLISH.t.buttons): ButtonRows {
  return [
    [
      { text: t.runNow, data: `${PREFIX.run}:${jobId}` },
      { text: t.pause, data: `${PREFIX.pause}:${jobId}` },
      { text: t.cancel, data: `${PREFIX.cancel}:${jobId}` },
    ],
  ];
}

/**
 * The buttons under a prompt job's message (docs/telegram.md): after a one-off's run Done, then the three snoozes; after
 * a recurring job's Done and Snooze 1 h, then Skip next and Pause; after a run of a job only its hook runs, which has
 * no next run to skip, Done and Snooze 1 h, then Pause. `runId` is the run the message came from.
 */
export function messageButtons(once: boolean | "hook", runId: string, t: Texts["buttons"] = ENGLISH.t.buttons): ButtonRows {
  if (once === "hook")
    return [
      [
        { text: t.done, data: `d:${runId}` },
        { text: t.snooze1h, data: `s:60:${runId}` },
      ],
      [{ text: t.pause, data: `p:${runId}` }],
    ];
  return once
    ? [
        [{ text: t.done, data: `d:${runId}` }],
        [
          { text: t.in10min, data: `s:10:${runId}` },
          { text: t.in1h, data: `s:60:${runId}` },
          { text: t.tomorrow9, data: `s:t:${runId}` },
        ],
      ]
    : [
        [
          { text: t.done, data: `d:${runId}` },
          { text: t.snooze1h, data: `s:60:${runId}` },
        ],
        [
          { text: t.skipNext, data: `k:${runId}` },
          { text: t.pause, data: `p:${runId}` },
        ],
      ];
}

/**
 * Run now and Skip under a message about a job's missed runs (docs/time.md#missed-runs), each naming the run of the
 * latest (`<jobId>:<last>`) and the first, in base 36: `mr:<first>:` and `ms:<first>:` + the run, ≤ 33 bytes.
 */
export function missedButtons(jobId: string, first: number, last: number, t: Texts["buttons"] = ENGLISH.t.buttons): ButtonRows {
  const runId = `${jobId}:${last}`;
  return [
    [
      { text: t.runNow, data: `mr:${first.toString(36)}:${runId}` },
      { text: t.skip, data: `ms:${first.toString(36)}:${runId}` },
    ],
  ];
}

/** Skip this one under a notice ahead of the run `runId` (`n:` + the run), docs/telegram.md#notices-ahead. */
export function noticeButtons(runId: string, t: Texts["buttons"] = ENGLISH.t.buttons): ButtonRows {
  return [[{ text: t.skipThisOne, data: `n:${runId}` }]];
}

/** What replaces a job message's buttons once one was pressed: one line (`✅ Done`), which answers that it was. */
export function answeredButtons(line: string, runId: string): ButtonRows {
  return [[{ text: line, data: `a:${runId}` }]];
}

/** An offer's id: 8 random characters, so that a button left under an erased chat's message finds nothing. */
export const newOfferId = (): string => randomId(8);

/** Create and Cancel under an offered reminder. */
export function offerButtons(offerId: string, t: Texts["buttons"] = ENGLISH.t.buttons): ButtonRows {
  return [
    [
      { text: t.create, data: `y:${offerId}` },
      { text: t.cancel, data: `n:${offerId}` },
    ],
  ];
}

/** One button per zone, two to a row, labelled with the zone and its offset now. */
export function zoneButtons(zones: readonly { zone: string; label: string }[]): ButtonRows {
  const rows: ButtonRows = [];
  for (let i = 0; i < zones.length; i += 2) rows.push(zones.slice(i, i + 2).map((z) => ({ text: z.label, data: `z:${z.zone}` })));
  return rows;
}

/** The Open scheduler button under /jobs: the Mini App (issue 18), as a `web_app` button or, in a group, a link. */
export function schedulerButton(app: { webApp: string } | { url: string }, t: Texts["buttons"] = ENGLISH.t.buttons): ButtonRows {
  return [[{ text: t.openScheduler, ...app }]];
}

/** The Mini App's direct link that opens it for a group (`startapp` names the group; the sign-in checks membership). */
export function groupAppLink(botUsername: string, appName: string, chatId: string): string {
  return `https://t.me/${botUsername}/${appName}?startapp=${chatId}`;
}

/** Telegram's markup for buttons. */
export function keyboard(rows: ButtonRows): InlineKeyboardMarkup {
  return {
    inline_keyboard: rows.map((row) =>
      row.map((b) =>
        "webApp" in b ? { text: b.text, web_app: { url: b.webApp } } : "url" in b ? { text: b.text, url: b.url } : { text: b.text, callback_data: b.data },
      ),
    ),
  };
}

let patterns: { job: RegExp; message: RegExp; offer: RegExp; zone: RegExp } | undefined;

const MESSAGE_ACTIONS: Readonly<Record<string, MessageAction>> = {
  d: { act: "done" },
  "s:10": { act: "snooze", snooze: { minutes: 10 } },
  "s:60": { act: "snooze", snooze: { minutes: 60 } },
  "s:t": { act: "snooze", snooze: { tomorrow: true } },
  k: { act: "skip" },
  p: { act: "pause" },
  a: { act: "answered" },
  n: { act: "skipOne" },
};

/** A pressed button's meaning, or null when the data is not one of ours. */
export function parseButton(data: string | undefined): Pressed | null {
  patterns ??= {
    job: new RegExp(`^([rpc]):(${JOB_ID_PATTERN})$`),
    message: new RegExp(`^(d|s:10|s:60|s:t|k|p|a|n|m[rs]:[0-9a-z]{1,10}):(${RUN_ID_PATTERN})$`),
    offer: new RegExp(`^([yn]):([${JOB_ID_ALPHABET}]{8})$`),
    zone: /^z:([A-Za-z][A-Za-z0-9_+\-/]{0,61})$/,
  };
  const text = data ?? "";
  const job = patterns.job.exec(text);
  if (job) return { kind: "job", action: job[1] === "r" ? "run" : job[1] === "p" ? "pause" : "cancel", id: job[2]! };
  const message = patterns.message.exec(text);
  if (message) {
    const code = message[1]!;
    const action: MessageAction = code.startsWith("m")
      ? { act: code.startsWith("mr:") ? "missedRun" : "missedSkip", first: Number.parseInt(code.slice(3), 36) }
      : MESSAGE_ACTIONS[code]!;
    return { kind: "message", action, runId: message[2]!, jobId: readRunId(message[2]!)!.jobId };
  }
  const offer = patterns.offer.exec(text);
  if (offer) return { kind: "offer", create: offer[1] === "y", id: offer[2]! };
  const zone = patterns.zone.exec(text);
  if (zone) return { kind: "zone", zone: zone[1]! };
  return null;
}
