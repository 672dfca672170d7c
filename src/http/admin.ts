/**
 * @module The admin API sub-app (`/admin/*`, DESIGN §10): behind ADMIN_TOKEN; preview, imports, the chats
 * with their jobs and memory, the OpenAPI document.
 */
import { Hono } from "hono";
import { VERSION } from "../version";
import { requireToken } from "./auth";
import { limitBody, MAX_IMPORT_BYTES } from "./body";
import { importRoute } from "./import";
import { chats } from "./chats";
import { requireConfigured, type AppEnv } from "./context";
import { openApiDocument } from "./openapi";
import { previewRoute } from "./preview";

export const admin = new Hono<AppEnv>();

// Access first, for every /admin path (unknown ones too, so the route list is not probed without a token).
admin.use("*", requireToken("ADMIN_TOKEN"));
// The document is served even while a var is invalid: it is what an operator reads to fix things.
admin.get("/openapi.json", (c) => c.json(openApiDocument(VERSION), 200));
// Everything registered below answers 500 config_error while a var the admin API depends on is invalid.
admin.use("*", requireConfigured("admin"));
// Imports carry a whole store (with its scripts): a larger limit of their own, registered before the 64 KiB one.
admin.post("/import", limitBody(MAX_IMPORT_BYTES), importRoute);
admin.use("*", limitBody());
admin.post("/preview", previewRoute);
admin.route("/chats", chats);
