/**
 * @module The kinds of Telegram message a reminder brings back (docs/telegram.md#remind-me-about-this), as Telegram's
 * Message names their fields: the update's parser reads them, a job keeps one, the chat names it in its language.
 */
export const COPY_KINDS = [
  "photo",
  "video",
  "animation",
  "voice",
  "audio",
  "document",
  "sticker",
  "video_note",
  "location",
  "venue",
  "contact",
  "poll",
  "dice",
  "story",
  "forward_origin",
] as const;
export type CopyKind = (typeof COPY_KINDS)[number];
