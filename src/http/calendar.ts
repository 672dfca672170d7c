/**
 * @module A chat's calendar feed over HTTP (docs/calendar.md): `GET /calendar/<token>.ics`, the feed a calendar app
 * subscribes to, and the admin routes that make, replace and revoke its address (`/admin/chats/:chatId/calendar`).
 * No bearer token on the feed: the token in the path is the secret, so every `/calendar/…` path that names no feed
 * answers the same sentence and nothing of the path reaches a log. The chat is found by the token's hash in the D1
 * directory; its object checks the hash again and builds the feed. Served as calendars expect: `text/calendar`, an
 * ETag that `If-None-Match` answers with 304, and a short private cache.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { sha256Hex } from "../bytes";
import { NO_CALENDAR } from "../chat/calendar";
import { chatOfCalendar } from "../directory/calendars";
import { calendarAddress, HOOK_TOKEN, hookHash } from "../hooks/token";
import type { CalendarAddress } from "../schemas/calendar";
import { chatIdOf, chatStub, noBody, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { errorResponse } from "./errors";
import { publicOrigin } from "./hooks";
import type { Operation } from "./openapi-components";

/** How long a calendar (or anything between) may keep the feed before asking again: a run edited shows within minutes. */
export const FEED_CACHE = "private, max-age=300";

export const calendarFeed = new Hono<AppEnv>();

const noCalendar = (c: Context<AppEnv>) => errorResponse(c, "not_found", NO_CALENDAR);

calendarFeed.get("/:file", async (c) => {
  const token = /^(.*)\.ics$/.exec(c.req.param("file"))?.[1];
  if (token === undefined || !HOOK_TOKEN.test(token)) return noCalendar(c);
  const hash = await hookHash(token);
  const chatId = await chatOfCalendar(c.env.DB, hash);
  if (chatId === null) return noCalendar(c);
  const answer = await chatStub(c.env, chatId).calendarFeed(chatId, hash, new URL(publicOrigin(c)).host);
  if (!answer.ok) return noCalendar(c);
  const { ics } = answer.value;
  const etag = `"${(await sha256Hex(ics)).slice(0, 32)}"`;
  const headers = { ETag: etag, "Cache-Control": FEED_CACHE };
  if (matches(c.req.header("If-None-Match"), etag)) return c.body(null, 304, headers);
  return c.body(ics, 200, { ...headers, "Content-Type": "text/calendar; charset=utf-8", "Content-Disposition": 'inline; filename="cuckoo.ics"' });
});

// Any other method, or a path that is no feed: the same answer as an unknown token.
calendarFeed.all("*", noCalendar);

/** Whether `If-None-Match` names the ETag (a list, weak forms, or `*`). */
function matches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/** The admin routes of a chat's feed address, mounted at `/admin/chats/:chatId/calendar`. */
export const chatCalendar = new Hono<AppEnv>();

chatCalendar.get("/", async (c) => {
  const chatId = chatIdOf(c);
  return c.json(unwrap(await chatStub(c.env, chatId).hasCalendar(chatId)), 200);
});

chatCalendar.post("/", async (c) => {
  const chatId = chatIdOf(c);
  await noBody(c);
  const { token } = unwrap(await chatStub(c.env, chatId).makeCalendar(chatId));
  const body: CalendarAddress = { url: calendarAddress(token, publicOrigin(c)) };
  return c.json(body, 201);
});

chatCalendar.delete("/", async (c) => {
  const chatId = chatIdOf(c);
  await noBody(c);
  unwrap(await chatStub(c.env, chatId).revokeCalendar(chatId));
  return c.body(null, 204);
});

/** What the OpenAPI document says of the feed and its address. */
export const calendarOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/chats/{chatId}/calendar",
    summary: "Whether the chat has a calendar feed address (the address itself is shown once, when it is made).",
    access: "admin",
    answers: [[200, "Whether it has one.", "CalendarState"]],
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/calendar",
    summary: "Make or replace the chat's calendar feed address (docs/calendar.md). Shown once; the old address stops working.",
    access: "admin",
    answers: [[201, "The feed's address.", "CalendarAddress"]],
  },
  {
    method: "delete",
    path: "/admin/chats/{chatId}/calendar",
    summary: "Revoke the chat's calendar feed address: a fetch of it finds nothing from now on.",
    access: "admin",
    answers: [[204, "Revoked (or there was none)."]],
  },
  {
    method: "get",
    path: "/calendar/{file}",
    summary: "The chat's jobs as an RFC 5545 calendar, for a calendar app to subscribe to (docs/calendar.md). `file` is `<token>.ics`.",
    description:
      "No bearer token: the token is the secret. One-offs as events, recurring jobs as RRULE (with UNTIL or COUNT, EXDATE for skipped runs) " +
      "or their runs of the next 60 days, each in the chat's zone with its VTIMEZONE and a VALARM at the run. `ETag` with `If-None-Match` → 304.",
    access: "public",
    answers: [
      [200, "The feed, `text/calendar; charset=utf-8`."],
      [304, "Not modified since the ETag given."],
    ],
    errors: { not_found: "no feed has this token, or it was revoked (`No calendar at this address.`, the same for every /calendar/… path)" },
  },
];
