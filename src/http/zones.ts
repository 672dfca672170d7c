/**
 * @module `GET /admin/zones?place=` (docs/telegram.md, docs/api.md): the zone a place names, or the likely ones of a place with
 * several or of an offset, as `/timezone` reads it (`placeZone`), for the page's Change zone and the Mini App.
 * A place that names no zone is 400 with the sentence.
 */
import { Hono } from "hono";
import { printable, shown } from "../contracts/ids";
import { type ZonesReply, zonesQuery } from "../schemas/zones";
import { placeZone, zoneChoiceLabel } from "../words";
import type { AppEnv } from "./context";
import { ApiError } from "./errors";
import type { Operation } from "./openapi-components";
import { readQuery } from "./query";

/** The sentence for a place that names no zone. */
export const unknownPlaceSentence = (place: string): string =>
  `"${shown(place)}" is not a time zone, city, country or offset I know; ` +
  "give a city such as Berlin, an offset such as UTC+2, or an IANA name such as America/New_York.";

export const zones = new Hono<AppEnv>();

zones.get("/", readQuery(zonesQuery), async (c) => {
  // Read as /timezone reads it: what does not show is no part of a name. `place` is answered as it was read, and
  // the page quotes it from the answer.
  const place = printable(c.req.valid("query").place).trim();
  // The offsets in the labels are today's; the edge's clock is the only one here.
  const now = Date.now();
  // No sender's language here: a city's name in any of the eight languages is read (English's first).
  const found = await placeZone(place, now);
  if (found.kind === "unknown") throw new ApiError("bad_request", unknownPlaceSentence(place));
  const offset = found.kind === "choices" && found.offset;
  const names = found.kind === "zone" ? [found.zone] : found.zones;
  const body: ZonesReply = { place, offset, zones: names.map((zone) => ({ zone, label: zoneChoiceLabel(zone, now, offset) })) };
  return c.json(body, 200);
});

/** What the OpenAPI document says of `GET /admin/zones`: `openapi.ts` builds it, a test checks it against the app. */
export const zoneOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/zones",
    summary: "The zone a place names (a city, a country, an offset or a zone name), or the likely ones of a place with several, as /timezone reads it.",
    access: "admin",
    query: zonesQuery,
    answers: [[200, "One zone, or the choices.", "ZonesReply"]],
    errors: { bad_request: "a place that names no zone, or none given" },
  },
];
