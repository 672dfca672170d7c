/**
 * @module The inline buttons the bot sends and reads back (DESIGN §6), each a callback data of at most 64 bytes:
 * under a job's message Run now, Pause and Cancel (`r:`/`p:`/`c:` + the job id); under an offered reminder
 * Create and Cancel (`y:`/`n:` + the offer's id); under a question about the zone, one button per zone
 * (`z:` + the IANA name, at most 32 characters); under /jobs, Open scheduler opens the Mini App (a `web_app`
 * button in a private chat; in a group, where Telegram allows none, a link to the Mini App naming the group).
 * Buttons are rows of `{ text, data }`, `{ text, webApp }` or `{ text, url }`, as the transcript keeps them;
 * `keyboard` turns them into Telegram's markup.
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import { JOB_ID_ALPHABET, JOB_ID_PATTERN, randomId } from "../contracts/ids";
import type { ButtonRows } from "../schemas/chats";
import { SCHEDULER_BUTTON } from "./menu";

/** What a reply sends: Markdown, and the buttons under it when it has any. */
export type Reply = { markdown: string; buttons?: ButtonRows };

export type JobAction = "run" | "pause" | "cancel";

/** A pressed button, read back from its data. */
export type Pressed =
  | { kind: "job"; action: JobAction; id: string }
  | { kind: "offer"; create: boolean; id: string }
  | { kind: "zone"; zone: string };

const PREFIX: Record<JobAction, string> = { run: "r", pause: "p", cancel: "c" };

/** Run now, Pause and Cancel under a job's message. */
export function jobButtons(jobId: string): ButtonRows {
  return [
    [
      { text: "Run now", data: `${PREFIX.run}:${jobId}` },
      { text: "Pause", data: `${PREFIX.pause}:${jobId}` },
      { text: "Cancel", data: `${PREFIX.cancel}:${jobId}` },
    ],
  ];
}

/** An offer's id: 8 random characters, so that a button left under an erased chat's message finds nothing. */
export const newOfferId = (): string => randomId(8);

/** Create and Cancel under an offered reminder. */
export function offerButtons(offerId: string): ButtonRows {
  return [
    [
      { text: "Create", data: `y:${offerId}` },
      { text: "Cancel", data: `n:${offerId}` },
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
export function schedulerButton(app: { webApp: string } | { url: string }): ButtonRows {
  return [[{ text: SCHEDULER_BUTTON, ...app }]];
}

/** The Mini App's direct link that opens it for a group (`startapp` names the group; the sign-in checks membership). */
export function groupAppLink(botUsername: string, appName: string, chatId: string): string {
  return `https://t.me/${botUsername}/${appName}?startapp=${chatId}`;
}

/** Telegram's markup for buttons. */
export function keyboard(rows: ButtonRows): InlineKeyboardMarkup {
  return {
    inline_keyboard: rows.map((row) =>
      row.map((b) => ("webApp" in b ? { text: b.text, web_app: { url: b.webApp } } : "url" in b ? { text: b.text, url: b.url } : { text: b.text, callback_data: b.data })),
    ),
  };
}

let patterns: { job: RegExp; offer: RegExp; zone: RegExp } | undefined;

/** A pressed button's meaning, or null when the data is not one of ours. */
export function parseButton(data: string | undefined): Pressed | null {
  patterns ??= {
    job: new RegExp(`^([rpc]):(${JOB_ID_PATTERN})$`),
    offer: new RegExp(`^([yn]):([${JOB_ID_ALPHABET}]{8})$`),
    zone: /^z:([A-Za-z][A-Za-z0-9_+\-/]{0,61})$/,
  };
  const text = data ?? "";
  const job = patterns.job.exec(text);
  if (job) return { kind: "job", action: job[1] === "r" ? "run" : job[1] === "p" ? "pause" : "cancel", id: job[2]! };
  const offer = patterns.offer.exec(text);
  if (offer) return { kind: "offer", create: offer[1] === "y", id: offer[2]! };
  const zone = patterns.zone.exec(text);
  if (zone) return { kind: "zone", zone: zone[1]! };
  return null;
}
