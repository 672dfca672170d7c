/**
 * @module The inline buttons under a job's message (DESIGN §6): Run now, Pause and Cancel, with callback data
 * `r:`/`p:`/`c:` + the job id (≤ 64 bytes), and reading that data back when one is pressed.
 */
import type { InlineKeyboardMarkup } from "@grammyjs/types";
import { JOB_ID_PATTERN } from "../contracts/ids";

export type ButtonAction = "run" | "pause" | "cancel";

const PREFIX: Record<ButtonAction, string> = { run: "r", pause: "p", cancel: "c" };

/** Run now, Pause and Cancel under a job's message. */
export function jobButtons(jobId: string): InlineKeyboardMarkup {
  return {
    inline_keyboard: [
      [
        { text: "Run now", callback_data: `${PREFIX.run}:${jobId}` },
        { text: "Pause", callback_data: `${PREFIX.pause}:${jobId}` },
        { text: "Cancel", callback_data: `${PREFIX.cancel}:${jobId}` },
      ],
    ],
  };
}

let buttonData: RegExp | undefined;

/** A pressed button's action and job id, or null when the data is not one of ours. */
export function parseButton(data: string | undefined): { action: ButtonAction; id: string } | null {
  buttonData ??= new RegExp(`^([rpc]):(${JOB_ID_PATTERN})$`);
  const m = buttonData.exec(data ?? "");
  if (!m) return null;
  return { action: m[1] === "r" ? "run" : m[1] === "p" ? "pause" : "cancel", id: m[2]! };
}
