/** @module The Hono app for every HTTP route (docs/api.md): mounts the route families and the one error path. */
import { Hono } from "hono";
import { NO_CALENDAR } from "../chat/calendar";
import { NO_HOOK } from "../hooks/answer";
import { admin } from "./admin";
import { calendarFeed } from "./calendar";
import { type AppEnv, withConfig } from "./context";
import { doctorRoute } from "./doctor";
import { errorResponse, notFound, onError } from "./errors";
import { health } from "./health";
import { hooks } from "./hooks";
import { mcp } from "./mcp";
import { miniApp } from "./mini-app";
import { runnerCallback } from "./runner-callback";
import { telegram } from "./telegram";
import { tools } from "./tools";

export const app = new Hono<AppEnv>();

app.onError(onError);
app.notFound(notFound);
app.use("*", withConfig);

app.get("/healthz", health);
app.route("/admin", admin);
// After the admin sub-app, whose guards (ADMIN_TOKEN, config) run first for every /admin path.
app.get("/admin/doctor", doctorRoute);
app.route("/telegram", telegram);
app.route("/tools", tools);
app.route("/mcp", mcp);
app.route("/app", miniApp);
app.route("/runner", runnerCallback);
app.route("/hooks", hooks);
app.all("/hooks", (c) => errorResponse(c, "not_found", NO_HOOK));
app.route("/calendar", calendarFeed);
app.all("/calendar", (c) => errorResponse(c, "not_found", NO_CALENDAR));
