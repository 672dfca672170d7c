/** @module The Mini App's sign-in shapes (docs/api.md `POST /app/session`; issue 18). */
import * as z from "zod";
import { lazy } from "../lazy";
import { chatId, instant } from "./common";

const INIT_DATA =
  '"initData" must be Telegram.WebApp.initData, the query string Telegram hands the Mini App, ' +
  'such as "query_id=AAH…&user=%7B%22id%22%3A111…%7D&auth_date=1767225600&hash=…".';

/** `POST /app/session`: the Mini App's `initData`, exactly as Telegram gave it. */
export const appLoginBody = lazy(() =>
  z.strictObject({
    initData: z
      .string({ error: INIT_DATA })
      .min(1, { error: INIT_DATA })
      .max(8192, { error: INIT_DATA })
      .meta({ description: "`Telegram.WebApp.initData`, unchanged: key=value fields joined by &, signed by Telegram (`hash`)." }),
  }),
);

/** The sign-in's answer: the one chat the session may use, when it ends, and the session for a bearer header. */
export const appSessionReply = lazy(() =>
  z.strictObject({
    chatId: chatId().meta({
      description:
        "The only chat the session may use: the signed-in user's private chat with the bot (its id is the user's), or the group the Mini App was opened from.",
    }),
    readOnly: z.literal(true).optional().meta({
      description: "Present for a group's member who is neither its admin nor in ALLOWED_USER_IDS: the session reads the group's jobs and changes nothing.",
    }),
    expiresAt: instant().meta({
      description: "When the session ends: 12 hours after sign-in, and never more than 24 hours after Telegram signed the initData.",
    }),
    session: z.string().meta({
      description:
        "The same session as the `__Host-cuckoo-app` cookie, for `Authorization: Bearer <session>` where the web view keeps no cookies. Never the bot token.",
      examples: ["app1.111.1767268800.bm9uY2Utbm9uY2Utbm9uY2U.bWFjLW1hYy1tYWMtbWFjLW1hYy1tYWMtbWFjLW1hYy1tYWM"],
    }),
  }),
);
export type AppSessionReply = z.infer<ReturnType<typeof appSessionReply>>;
