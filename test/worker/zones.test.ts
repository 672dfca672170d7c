/**
 * Places for zones on the admin API (docs/telegram.md, docs/api.md): `GET /admin/zones?place=` answers the zone a place names,
 * or the likely ones of a place with several, as `/timezone` reads it; `PUT …/settings` takes a place that names
 * one zone and refuses one with several, naming them. The labels' offsets are today's. Chat ids 5220000 up.
 */
import { describe, expect, it } from "vitest";
import { errorEnvelope } from "../../src/schemas/errors";
import { formatOffset } from "../../src/time";
import { badRequest, send } from "./helpers";

const US = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
  "America/Adak",
];
const labelled = (zone: string) => ({ zone, label: `${zone} (${formatOffset(zone, Date.now())})` });

describe("GET /admin/zones", () => {
  it("answers the one zone of a city, a country and a zone's own name", async () => {
    for (const place of ["Berlin", "germany", "Germania", "Europe/Berlin", "W. Europe Standard Time"]) {
      expect(await send("GET", `/admin/zones?place=${encodeURIComponent(place)}`), place).toEqual({
        status: 200,
        body: { place, offset: false, zones: [labelled("Europe/Berlin")] },
      });
    }
  });

  it("answers the zone of a city named in any of the eight languages (issue 33)", async () => {
    for (const [place, zone] of [
      ["Wien", "Europe/Vienna"],
      ["Москва", "Europe/Moscow"],
      ["Lissabon", "Europe/Lisbon"],
    ]) {
      expect(await send("GET", `/admin/zones?place=${encodeURIComponent(place!)}`), place).toEqual({
        status: 200,
        body: { place, offset: false, zones: [labelled(zone!)] },
      });
    }
  });

  it("answers the likely zones of a country with several clocks, and of an offset", async () => {
    expect(await send("GET", "/admin/zones?place=USA")).toEqual({ status: 200, body: { place: "USA", offset: false, zones: US.map(labelled) } });
    // Tokyo and Seoul keep one clock: one of them, then the fixed offset.
    expect(await send("GET", "/admin/zones?place=UTC%2B9")).toEqual({
      status: 200,
      body: {
        place: "UTC+9",
        offset: true,
        zones: [
          { zone: "Asia/Tokyo", label: "Asia/Tokyo" },
          { zone: "Etc/GMT-9", label: "UTC+09:00, no summer time" },
        ],
      },
    });
  });

  it("refuses a place it does not know, and no place, with a sentence", async () => {
    expect(await send("GET", "/admin/zones?place=Atlantis")).toEqual(
      badRequest(
        `"Atlantis" is not a time zone, city, country or offset I know; give a city such as Berlin, an offset such as UTC+2, or an IANA name such as America/New_York.`,
      ),
    );
    expect(await send("GET", "/admin/zones")).toEqual(
      badRequest(`"place" must be a city, a country, an offset or a zone name of 1 to 100 characters, such as "Berlin".`),
    );
  });
});

describe("PUT /admin/chats/:chatId/settings with a place", () => {
  it("sets the zone a city names, and refuses a country with several, naming them", async () => {
    const set = await send("PUT", "/admin/chats/5220001/settings", { timeZone: "Berlin" });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ chatId: "5220001", timeZone: "Europe/Berlin", isDefault: false, cronJobs: 0, oneOffs: 0 });
    expect(await send("PUT", "/admin/chats/5220001/settings", { timeZone: "USA" })).toEqual(
      badRequest(
        `"USA" has more than one time zone (America/New_York, America/Chicago, America/Denver, America/Phoenix, America/Los_Angeles, …); give one of them, or see GET /admin/zones?place=USA.`,
      ),
    );
    expect((await send("GET", "/admin/chats/5220001/settings")).body).toEqual({ chatId: "5220001", timeZone: "Europe/Berlin", isDefault: false });
    // A bare offset is no zone, as before: the zone rules' sentence.
    expect((await send("PUT", "/admin/chats/5220001/settings", { timeZone: "+03:00" }).as(errorEnvelope())).body.error.message).toMatch(
      /^Unknown time zone "\+03:00"\./,
    );
  });
});
