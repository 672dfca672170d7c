/** @module The Hono app for every HTTP route (DESIGN §10): mounts the route families and the one error path. */
import { Hono } from "hono";
import { admin } from "./admin";
import { withConfig, type AppEnv } from "./context";
import { notFound, onError } from "./errors";
import { health } from "./health";
import { mcp } from "./mcp";
import { miniApp } from "./mini-app";
import { telegram } from "./telegram";
import { tools } from "./tools";
import { acceptCallback } from "../runner-client/callback";

export const app = new Hono<AppEnv>();

app.onError(onError);
app.notFound(notFound);
app.use("*", withConfig);

app.get("/healthz", health);
app.route("/admin", admin);
app.route("/telegram", telegram);
app.route("/tools", tools);
app.route("/mcp", mcp);
app.route("/app", miniApp);
// The runner's callback (DESIGN §8): signed by the runner, no token; 204 for any run id. With the runner
// container, callbacks come through its outbound handler only (which also checks the container's own chat),
// so the public route does not exist: a leaked secret could otherwise post outcomes for any chat.
app.post("/runner/callback/:chatId", (c) =>
  c.var.config.runner.mode === "container" ? c.notFound() : acceptCallback(c.env, c.req.param("chatId"), c.req.raw),
);
