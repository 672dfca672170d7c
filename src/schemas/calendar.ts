/** @module The shapes of a chat's calendar feed (docs/calendar.md): its address, shown once, and whether it has one. */
import * as z from "zod";
import { lazy } from "../lazy";

/** `{ url }`: the feed's private address, shown once (a new one replaces it). */
export const calendarAddressSchema = lazy(() =>
  z.strictObject({
    url: z.string().meta({
      description: "Subscribe to this address in a calendar app; the token in it is shown once.",
      examples: ["https://cuckoo.example.com/calendar/q7w….ics"],
    }),
  }),
);

/** `{ calendar }`: whether the chat has a feed address (it is never shown again). */
export const calendarStateSchema = lazy(() => z.strictObject({ calendar: z.boolean().meta({ description: "Whether the chat has a calendar feed address." }) }));

export type CalendarAddress = z.infer<ReturnType<typeof calendarAddressSchema>>;
