/**
 * @module The admin API sub-app (`/admin/*`, docs/api.md): behind ADMIN_TOKEN; the page's session, preview, the
 * zones a place names, imports, the directory across chats, the chats with their jobs and memory, the OpenAPI
 * document.
 */
import { Hono } from "hono";
import { VERSION } from "../version";
import { scopeAppSession } from "./app-access";
import { requireToken } from "./auth";
import { limitBody, MAX_IMPORT_BYTES } from "./body";
import { chats } from "./chats";
import { type AppEnv, requireConfigured } from "./context";
import { directory } from "./directory";
import { importRoute } from "./import";
import { openApiDocument } from "./openapi";
import { previewRoute } from "./preview";
import { login, logout, sessionStatus } from "./session";
import { zones } from "./zones";

export const admin = new Hono<AppEnv>();

// The page's login and logout come before the guard: they are how a page gets past it.
admin.post("/session", limitBody(), login);
admin.delete("/session", logout);
// Access first, for every other /admin path (unknown ones too, so the route list is not probed without a token).
admin.use("*", requireToken("ADMIN_TOKEN"));
// A Mini App session (issue 18) reaches its own chat, the preview and the zones a place names only.
admin.use("*", scopeAppSession);
// The document is served even while a var is invalid: it is what an operator reads to fix things.
admin.get("/openapi.json", (c) => c.json(openApiDocument(VERSION), 200));
// Everything registered below answers 500 config_error while a var the admin API depends on is invalid.
admin.use("*", requireConfigured("admin"));
// Imports carry a whole store (with its scripts): a larger limit of their own, registered before the 64 KiB one.
admin.post("/import", limitBody(MAX_IMPORT_BYTES), importRoute);
admin.use("*", limitBody());
admin.get("/session", sessionStatus);
admin.post("/preview", previewRoute);
admin.route("/zones", zones);
admin.route("/", directory);
admin.route("/chats", chats);
