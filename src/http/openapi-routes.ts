/**
 * @module Every route's OpenAPI rows (docs/api.md), in the order a reader meets them: each route module keeps the
 * rows of its own routes beside them, and `openapi.ts` builds the document from this list; a test checks it
 * against the routes the app serves. Here only the document's own route.
 */
import { agentApiOperations } from "./agent-api";
import { calendarOperations } from "./calendar";
import { chatOperations } from "./chats";
import { directoryOperations } from "./directory";
import { doctorOperations } from "./doctor";
import { healthOperations } from "./health";
import { hookOperations } from "./hooks";
import { importOperations } from "./import";
import { jobOperations } from "./jobs";
import { memoryOperations } from "./memory";
import { miniAppOperations } from "./mini-app";
import type { Operation } from "./openapi-components";
import { previewOperations } from "./preview";
import { runnerCallbackOperations } from "./runner-callback";
import { sessionOperations } from "./session";
import { webhookOperations } from "./telegram";
import { toolOperations } from "./tools";
import { zoneOperations } from "./zones";

/** Every operation the app serves. */
export function operations(): Operation[] {
  return [
    ...healthOperations(),
    {
      method: "get",
      path: "/admin/openapi.json",
      summary: "This document.",
      access: "admin",
      alwaysServed: true,
      answers: [[200, "The OpenAPI 3.1 document."]],
    },
    ...doctorOperations(),
    ...sessionOperations(),
    ...miniAppOperations(),
    ...previewOperations(),
    ...zoneOperations(),
    ...importOperations(),
    ...directoryOperations(),
    ...chatOperations(),
    ...jobOperations(),
    ...memoryOperations(),
    ...toolOperations(),
    ...agentApiOperations(),
    ...webhookOperations(),
    ...runnerCallbackOperations(),
    ...hookOperations(),
    ...calendarOperations(),
  ];
}
