/**
 * @module What the OpenAPI document says about each route (DESIGN §10): one compact row per operation, the
 * admin API's and health's here, the agents' in `openapi-routes-agent.ts`. `openapi.ts` builds the document
 * from these; a test checks the rows against the routes the app serves.
 */
import { transcriptQuery } from "../schemas/chats";
import { chatsQuery, directoryJobsQuery } from "../schemas/directory";
import { jobFilter, LIMITS } from "../schemas/jobs";
import { MEMORY_LIMITS } from "../schemas/memory";
import type { Operation } from "./openapi-components";
import { agentOperations } from "./openapi-routes-agent";

/** The reply of a job action: the job after it. */
const jobAnswer = (description: string): Operation["answers"] => [[200, description, "JobReply"]];
/** Why a sign-in route answers 429 (`sign-in-limit.ts`). */
const SIGN_IN_LIMITED =
  "more than 10 failed sign-ins from this client address (`CF-Connecting-IP`; an IPv6 address by its /64) within 60 s, then every attempt from it, a right one too, until its minute is over; `Retry-After: 60`";
const RULES = "a rule of DESIGN §3 or §4 (the message says which, e.g. `Give exactly one of \"at\", \"cron\" or \"delay\", such as \"cron\": \"0 8 * * 1-5\" or \"delay\": \"PT20M\".`)";

/** Every operation the app serves, in the order a reader meets them. */
export function operations(): Operation[] {
  const chat = "/admin/chats/{chatId}";
  const job = `${chat}/jobs/{id}`;
  const memory = `${chat}/memory/{memoryId}`;
  return [
    {
      method: "get",
      path: "/healthz",
      summary: "Health: the modes the Worker runs in, or every configuration error.",
      access: "public",
      answers: [
        [200, "Configured.", "HealthOk"],
        [503, "One or more vars are invalid.", "HealthErrors"],
      ],
    },
    {
      method: "get",
      path: "/admin/openapi.json",
      summary: "This document.",
      access: "admin",
      alwaysServed: true,
      answers: [[200, "The OpenAPI 3.1 document."]],
    },
    {
      method: "post",
      path: "/admin/session",
      summary: "The page's login: ADMIN_TOKEN for a signed session cookie (HttpOnly, Secure, SameSite=Strict, 12 hours), never the token itself.",
      description:
        "The cookie `__Host-cuckoo-session` then stands for the bearer token on every /admin route. A request it lets in that changes something (POST, PUT, PATCH, DELETE) must carry an `Origin` naming this site, and a body `Content-Type: application/json`, else 403 `forbidden`. Changing ADMIN_TOKEN ends every session. In open dev mode (CUCKOO_DEV=1, no token) nothing is needed: the answer is `expiresAt: null` and no cookie.",
      access: "public",
      body: "SessionRequest",
      answers: [[200, "Signed in; the Set-Cookie header carries the session.", "SessionReply"]],
      errors: {
        unauthorized: "`The token does not match ADMIN_TOKEN.`",
        forbidden: "not a JSON request from this site's page (in open dev mode: from a localhost page)",
        rate_limited: SIGN_IN_LIMITED,
        not_configured: "deployed without ADMIN_TOKEN",
      },
    },
    {
      method: "delete",
      path: "/admin/session",
      summary: "The page's logout: the session cookie is cleared.",
      access: "public",
      answers: [[204, "Signed out (also when no one was signed in)."]],
      errors: { forbidden: "not a request from this site's page" },
    },
    { method: "get", path: "/admin/session", summary: "How this request got in (open dev mode, the session cookie, a bearer token or a Mini App session) and when its session ends.", access: "admin", answers: [[200, "The access.", "SessionStatus"]] },
    {
      method: "get",
      path: "/app",
      summary: "The Scheduler page as a Telegram Mini App: one chat, the signed-in user's own, in Telegram's theme.",
      description:
        "The page of `/` in its one-chat mode (`<html data-mode=\"chat\">`), with Telegram's `telegram-web-app.js` and a Content-Security-Policy that allows exactly that script and framing by https://web.telegram.org. The page signs in with `POST /app/session`.",
      access: "public",
      html: true,
      answers: [[200, "The page."]],
    },
    {
      method: "post",
      path: "/app/session",
      summary: "The Mini App's sign-in: Telegram's signed initData for a session of the user's own chat (HttpOnly, Secure, SameSite=None, Partitioned cookie, and in the body).",
      description:
        "`initData` is checked as Telegram documents it: `hash` must be the hex HMAC-SHA256 of the data-check-string (every other field, sorted, `key=value` lines) keyed with HMAC-SHA256(\"WebAppData\", bot token), compared in constant time; `auth_date` at most 24 hours old and not ahead of the server's clock; the user in ALLOWED_USER_IDS. The session (`__Host-cuckoo-app`, also as `session` for an `Authorization: Bearer` header where cookies are blocked) opens `/admin/chats/<own id>/…` and `POST /admin/preview` only; other chats, `GET /admin/chats`, `GET /admin/jobs`, imports, the directory rebuild and erasing are 403. As a cookie it follows the page's rules (same-origin JSON requests). It lasts 12 hours (never past the initData's 24), is signed with a key derived from the bot token, and never holds the token.",
      access: "public",
      body: "AppSessionRequest",
      answers: [[200, "Signed in; the Set-Cookie header carries the session too.", "AppSessionReply"]],
      errors: {
        unauthorized: "initData not signed by this bot, without a hash, malformed, more than 24 hours old or ahead of the clock, or naming no user (the message says which)",
        forbidden: "the user is not in ALLOWED_USER_IDS, or the request is not a JSON request from this site",
        rate_limited: SIGN_IN_LIMITED,
        not_configured: "no TELEGRAM_BOT_TOKEN (transcript mode): there is no bot to sign initData",
        config_error: "a Telegram var is invalid; the message says which",
      },
    },
    {
      method: "post",
      path: "/admin/preview",
      summary: "The next occurrences of a schedule, with notes on DST-moved ones and a description.",
      access: "admin",
      body: "PreviewRequest",
      answers: [[200, "The preview.", "PreviewResponse"]],
      errors: { bad_request: `not exactly one of cron, at and delay, an unknown zone, a \`from\` that is not an RFC 3339 instant, or ${RULES}` },
    },
    {
      method: "post",
      path: "/admin/import",
      summary: "Import jobs from a store Cuckoo replaces: Playa's jobs.json, acpbot's schedule files or the legacy commitments.jsonl.",
      description:
        "Each entry becomes a job of its chat, checked by the rules of a create; a one-off already past fires at once, late. Read tolerantly: an entry that cannot be imported is a sentence in `problems` and the rest is imported. Idempotent: each imported job remembers its source id (`playa:<id>`, `acpbot:<id>`, `commitments:<id>`), and an entry imported before, even one whose job is gone since, is only counted in `skipped`. The formats' fields: docs/imports.md.",
      access: "admin",
      body: "ImportRequest",
      limit: "1 MiB",
      answers: [[200, "What was created, what was imported before, and a sentence per entry left out or note.", "ImportReply"]],
      errors: {
        bad_request: '`"chatId" is required for the acpbot format: …`, `"settings" applies only to the playa format …`, or an unknown format',
      },
    },
    {
      method: "get",
      path: "/admin/chats",
      summary: "The chats of the D1 directory, by chat id: each one's zone, job count, soonest next run and blocked flag.",
      description:
        "The directory is a projection each chat's object writes after its own changes (eventually consistent). A chat that has only been read (no job, no zone of its own) is not listed. A cron job's next run is computed from its schedule when read.",
      access: "admin",
      query: chatsQuery,
      answers: [[200, "A page of chats.", "ChatList"]],
      errors: { bad_request: '`"limit" must be a whole number from 1 to 100.`, a query over 200 characters or a cursor that is not one of ours' },
    },
    {
      method: "get",
      path: "/admin/jobs",
      summary: "Jobs across chats from the D1 directory, soonest first (paused and finished last).",
      description: "What the cross-chat list shows of each job; the chat's own `GET /admin/chats/{chatId}/jobs` has the whole job.",
      access: "admin",
      query: directoryJobsQuery,
      answers: [[200, "A page of jobs.", "DirectoryJobList"]],
      errors: { bad_request: "an unknown category, a limit out of 1–100, a query over 200 characters or a cursor that is not one of ours" },
    },
    {
      method: "post",
      path: "/admin/directory/rebuild",
      summary: "Rebuild the D1 directory from the chats' objects (after a restore): each chat deletes its rows and writes them again.",
      access: "admin",
      body: "RebuildRequest",
      answers: [[200, "The chats rebuilt and those whose write failed; follow `cursor` for the next page.", "RebuildReply"]],
      errors: { bad_request: "a chat id that is not one, more than 100 of them, or a cursor that is not one of ours" },
    },
    {
      method: "delete",
      path: chat,
      summary: "Erase the chat: all its jobs, runs, settings and its alarm, and its rows in the D1 directory.",
      access: "admin",
      body: "EmptyBody",
      answers: [[204, "Erased (also when the chat was never used)."]],
    },
    {
      method: "get",
      path: `${chat}/settings`,
      summary: "The chat's settings: its zone, or DEFAULT_TIMEZONE.",
      access: "admin",
      answers: [[200, "The settings.", "ChatSettings"]],
    },
    {
      method: "put",
      path: `${chat}/settings`,
      summary: "Set the chat's zone (null: back to DEFAULT_TIMEZONE); cron jobs follow it, one-offs keep their instant.",
      access: "admin",
      body: "SettingsUpdate",
      answers: [[200, "The new settings, the counts and the reply of DESIGN §4.", "ZoneChange"]],
      errors: { bad_request: 'an unknown zone (`Unknown time zone "Mars/Olympus". …`)' },
    },
    {
      method: "get",
      path: `${chat}/jobs`,
      summary: "The chat's jobs, with its zone and the current instant.",
      access: "admin",
      query: jobFilter,
      answers: [[200, "The jobs.", "JobList"]],
      errors: { bad_request: "an unknown category or a query over 200 characters" },
    },
    {
      method: "post",
      path: `${chat}/jobs`,
      summary: "Create a job (createdBy `admin`).",
      access: "admin",
      body: "JobCreate",
      answers: [[201, "Created.", "JobReply"]],
      errors: { bad_request: `${RULES}, or the chat's job limit (\`This chat already has 50 jobs (the limit); cancel one first.\`)` },
    },
    { method: "get", path: job, summary: "One job.", access: "admin", answers: jobAnswer("The job.") },
    {
      method: "patch",
      path: job,
      summary: "Edit a job; applies from its next occurrence and never touches a run in flight.",
      access: "admin",
      body: "JobEdit",
      answers: jobAnswer("The edited job."),
      errors: { bad_request: RULES },
    },
    {
      method: "delete",
      path: job,
      summary: "Cancel (remove) a job; an agent run in progress is not aborted.",
      access: "admin",
      body: "EmptyBody",
      answers: [[204, "Cancelled."]],
    },
    {
      method: "post",
      path: `${job}/run`,
      summary: "Run the job now: a manual run, nothing rescheduled or deleted.",
      access: "admin",
      body: "EmptyBody",
      answers: jobAnswer("The job after the action."),
      errors: { conflict: "a run of the job is in flight (`Job <id> is still running.`)" },
    },
    {
      method: "post",
      path: `${job}/pause`,
      summary: "Pause the job: kept, with nextRunAt null.",
      access: "admin",
      body: "EmptyBody",
      answers: jobAnswer("The job after the action."),
    },
    {
      method: "post",
      path: `${job}/resume`,
      summary: "Resume the job: a cron job from now; a one-off at its time, at once when that has passed.",
      access: "admin",
      body: "EmptyBody",
      answers: jobAnswer("The job after the action."),
    },
    {
      method: "get",
      path: `${job}/runs`,
      summary: `The job's last ${LIMITS.runsKept} runs, newest first.`,
      access: "admin",
      answers: [[200, "The runs.", "RunList"]],
    },
    {
      method: "get",
      path: `${chat}/memory`,
      summary: "The chat's memory records, the most recently updated first.",
      access: "admin",
      answers: [[200, "The records.", "MemoryList"]],
    },
    {
      method: "post",
      path: `${chat}/memory`,
      summary: `Create a memory record (revision 1); at most ${MEMORY_LIMITS.records} a chat.`,
      access: "admin",
      body: "MemoryCreate",
      answers: [[201, "Created.", "MemoryReply"]],
      errors: {
        bad_request: `a title that is blank, over ${MEMORY_LIMITS.title} characters or not one line, a body over 16 KB, or the chat's limit (\`This chat already has ${MEMORY_LIMITS.records} memory records (the limit); delete one first.\`)`,
      },
    },
    { method: "get", path: `${memory}`, summary: "One memory record.", access: "admin", answers: [[200, "The record.", "MemoryReply"]] },
    {
      method: "patch",
      path: `${memory}`,
      summary: "Update a memory record from the revision read: title, body or both; the revision goes up by one.",
      access: "admin",
      body: "MemoryUpdate",
      answers: [[200, "The updated record.", "MemoryReply"]],
      errors: {
        bad_request: "neither title nor body, or either against the rules of create",
        conflict: "the revision is not the record's current one (`Memory record <id> is at revision 4, not 3: it changed since you read it. …`); nothing was written",
      },
    },
    {
      method: "delete",
      path: `${memory}`,
      summary: "Delete a memory record. Jobs that refer to it keep the reference; their runs fail until it is changed. A read of the id is then 404.",
      access: "admin",
      body: "EmptyBody",
      answers: [[204, "Deleted."]],
    },
    {
      method: "post",
      path: `${chat}/test`,
      summary: "Run a watcher command once through the runner (a dry run, at most 60 s) and answer its outcome; nothing is stored, scheduled or delivered.",
      description:
        "The command runs as a watcher's would (`/bin/sh -c`, the chat's workspace and zone, `CUCKOO_JOB_ID=test`), with its timeout cut to 60 s. Its output and stderr tail are redacted: every secret the Worker holds is `[REDACTED]`.",
      access: "admin",
      body: "TestRequest",
      answers: [
        [
          200,
          "The runner's outcome. A runner that cannot be reached (or refuses the request) gives status `failed`, exitCode null and stderrTail `did not start: …` with the reason.",
          "RunnerOutcome",
        ],
      ],
      errors: {
        bad_request: 'a command or timeout out of range (`"command" must be a /bin/sh script of 1 to 8000 characters, such as "curl -s https://example.com/price".`)',
        not_configured: "no runner is configured (`Testing a watcher needs the runner: … Nothing was run.`)",
      },
    },
    {
      method: "get",
      path: `${chat}/messages`,
      summary: "The chat's transcript, oldest first (the last 500 kept).",
      access: "admin",
      query: transcriptQuery,
      answers: [[200, "The transcript.", "Transcript"]],
      errors: { bad_request: '`"limit" must be a whole number from 1 to 500.`' },
    },
    {
      method: "post",
      path: `${chat}/messages`,
      summary: "Transcript mode only: a message from the chat's user (`text`, routed like a Telegram message; commands work), or a button pressed (`press`).",
      access: "admin",
      body: "MessageRequest",
      answers: [
        [202, "A message accepted; the prompt's key is `m:<messageId>`.", "MessageAccepted"],
        [200, "A button pressed: the notice Telegram would show. A message it causes is a bot entry in the transcript.", "PressAnswer"],
      ],
      errors: {
        bad_request: "neither or both of `text` and `press`, or `press` data that is no button of this chat",
        conflict: "the bot is connected to Telegram; write to it there",
      },
    },
    ...agentOperations(),
  ];
}
