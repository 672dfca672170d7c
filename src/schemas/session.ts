/** @module The page's login shapes (docs/api.md `POST`/`GET /admin/session`). */
import * as z from "zod";
import { lazy } from "../lazy";
import { chatId, instant } from "./common";

const TOKEN = `"token" must be the ADMIN_TOKEN, a string such as "s3cret-token".`;

/** `POST /admin/session`: the admin token, traded for the session cookie. */
export const loginBody = lazy(() =>
  z.strictObject({ token: z.string({ error: TOKEN }).min(1, { error: TOKEN }).max(4096, { error: TOKEN }).meta({ description: "ADMIN_TOKEN." }) }),
);

/** The login's answer: when the session ends; null in open dev mode, where no login is needed. */
export const sessionReplySchema = lazy(() =>
  z.strictObject({ expiresAt: instant().nullable().meta({ description: "When the session cookie expires; null: open dev mode, no cookie." }) }),
);
export type SessionReply = z.infer<ReturnType<typeof sessionReplySchema>>;

/** How a request got in: the open dev mode, the session cookie, a bearer token or a Mini App session. */
export const sessionStatusSchema = lazy(() =>
  z.strictObject({
    via: z.enum(["open", "cookie", "bearer", "app"]).meta({ description: "`app`: a Mini App session (`POST /app/session`), as a cookie or a bearer header." }),
    expiresAt: instant().nullable().meta({ description: "The session's expiry (the page's cookie and Mini App sessions)." }),
    chatId: chatId().optional().meta({ description: "A Mini App session's one chat." }),
    readOnly: z.boolean().optional().meta({
      description:
        "Present (true) for a Mini App session opened from a group by a member who is neither its admin nor in ALLOWED_USER_IDS: it may read, not change.",
    }),
  }),
);
export type SessionStatus = z.infer<ReturnType<typeof sessionStatusSchema>>;
