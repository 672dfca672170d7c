/** @module The zones a place names (docs/telegram.md, docs/api.md): `GET /admin/zones?place=`, what the page's Change zone asks. */
import * as z from "zod";
import { lazy } from "../lazy";

const PLACE = `"place" must be a city, a country, an offset or a zone name of 1 to 100 characters, such as "Berlin".`;

/** `?place=`: what a person types for where they are. */
export const zonesQuery = lazy(() =>
  z.strictObject({
    place: z
      .string({ error: PLACE })
      .min(1, { error: PLACE })
      .max(100, { error: PLACE })
      .meta({ description: "A city or country (`Berlin`, `Japan`), an offset (`UTC+2`), or an IANA or Windows zone name.", examples: ["Berlin"] }),
  }),
);

/** The zones found: one for a place with one clock, the likely ones of a name with several or of an offset. */
export const zonesReply = lazy(() =>
  z.strictObject({
    place: z.string().meta({ description: "The place as it was read: what shows of it, without control, bidi and zero-width characters." }),
    offset: z.boolean().meta({ description: "The place was an offset: the zones on it now (a zone keeps its summer time, a fixed offset does not)." }),
    zones: z
      .array(
        z.strictObject({
          zone: z.string().meta({ description: "An IANA zone name, to PUT as the chat's timeZone.", examples: ["Europe/Berlin"] }),
          label: z.string().meta({ description: "How it is offered, as /timezone's buttons show it.", examples: ["Europe/Berlin (UTC+01:00)"] }),
        }),
      )
      .meta({ description: "One zone, or the choices (most likely first)." }),
  }),
);
export type ZonesReply = z.infer<ReturnType<typeof zonesReply>>;
