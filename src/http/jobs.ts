/**
 * @module The admin job routes (`/admin/chats/:chatId/jobs…`, docs/api.md): bodies checked at the
 * edge with the job schemas, everything else asked of the chat's Durable Object, its results mapped to
 * statuses. Mounted under `/admin/chats/:chatId`, behind ADMIN_TOKEN.
 */
import { Hono } from "hono";
import { createJobInput, editJobInput, type Job, type JobList, jobFilter, LIMITS, type Run } from "../schemas/jobs";
import { readJson } from "./body";
import { chatIdOf, chatStub, checkChatId, jobIdOf, noBody, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
import { hookOf } from "./hooks";
import { JOB_RULES, type Operation } from "./openapi-components";
import { readQuery } from "./query";

export const jobs = new Hono<AppEnv>();

/** `?category=` and `?q=`, each empty for no filter. */
jobs.get("/", checkChatId, readQuery(jobFilter), async (c) => {
  const chatId = chatIdOf(c);
  const body: JobList = unwrap(await chatStub(c.env, chatId).listJobs(chatId, c.req.valid("query")));
  return c.json(body, 200);
});

jobs.post("/", async (c) => {
  const chatId = chatIdOf(c);
  const input = await readJson(c, createJobInput());
  if (input.trigger === undefined) {
    const job: Job = unwrap(await chatStub(c.env, chatId).createJob(chatId, input, "admin"));
    return c.json({ job }, 201);
  }
  // A job only its hook runs is made with its hook, whose URL and address this answer shows once.
  const { job, token } = unwrap(await chatStub(c.env, chatId).createJobWithHook(chatId, input, "admin"));
  return c.json({ job, ...(token === null ? {} : { hook: hookOf(c, token) }) }, 201);
});

/** Makes or replaces the job's hook: its URL and address, shown once (docs/hooks.md). */
jobs.post("/:id/hook", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  await noBody(c);
  const { token } = unwrap(await chatStub(c.env, chatId).makeHook(chatId, id));
  return c.json(hookOf(c, token), 201);
});

/** Revokes the job's hook: a call of its URL, or a mail to its address, finds nothing from now on. */
jobs.delete("/:id/hook", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  await noBody(c);
  unwrap(await chatStub(c.env, chatId).revokeHook(chatId, id));
  return c.body(null, 204);
});

jobs.get("/:id", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  const job: Job = unwrap(await chatStub(c.env, chatId).getJob(chatId, id));
  return c.json({ job }, 200);
});

jobs.patch("/:id", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  const input = await readJson(c, editJobInput());
  const job: Job = unwrap(await chatStub(c.env, chatId).editJob(chatId, id, input));
  return c.json({ job }, 200);
});

jobs.delete("/:id", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  await noBody(c);
  unwrap(await chatStub(c.env, chatId).cancelJob(chatId, id));
  return c.body(null, 204);
});

/** `/run`, `/pause`, `/resume` (docs/api.md): no body, the job after the action. */
for (const [action, method] of [
  ["run", "runJobNow"],
  ["pause", "pauseJob"],
  ["resume", "resumeJob"],
] as const) {
  jobs.post(`/:id/${action}`, async (c) => {
    const chatId = chatIdOf(c);
    const id = jobIdOf(c);
    await noBody(c);
    const job: Job = unwrap(await chatStub(c.env, chatId)[method](chatId, id));
    return c.json({ job }, 200);
  });
}

/** `/skip` (docs/api.md#jobs): a recurring job's next occurrence passed over; no body, the job after it. */
jobs.post("/:id/skip", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  await noBody(c);
  const { job } = unwrap(await chatStub(c.env, chatId).skipJob(chatId, id));
  return c.json({ job } satisfies { job: Job }, 200);
});

jobs.get("/:id/runs", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  const runs: Run[] = unwrap(await chatStub(c.env, chatId).jobRuns(chatId, id));
  return c.json({ runs }, 200);
});

/** The reply of a job action: the job after it. */
const jobAnswer = (description: string): Operation["answers"] => [[200, description, "JobReply"]];

/** What the OpenAPI document says of these routes: `openapi.ts` builds it, a test checks it against the app. */
export const jobOperations = (): Operation[] => [
  {
    method: "get",
    path: "/admin/chats/{chatId}/jobs",
    summary: "The chat's jobs, with its zone and the current instant.",
    access: "admin",
    query: jobFilter,
    answers: [[200, "The jobs.", "JobList"]],
    errors: { bad_request: "an unknown category or a query over 200 characters" },
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/jobs",
    summary: "Create a job (createdBy `admin`).",
    access: "admin",
    body: "JobCreate",
    answers: [[201, 'Created; with `"trigger": "hook"` the answer carries `hook`: its URL and address, shown once.', "JobCreated"]],
    errors: { bad_request: `${JOB_RULES}, or the chat's job limit (\`This chat already has 50 jobs (the limit); cancel one first.\`)` },
  },
  { method: "get", path: "/admin/chats/{chatId}/jobs/{id}", summary: "One job.", access: "admin", answers: jobAnswer("The job.") },
  {
    method: "patch",
    path: "/admin/chats/{chatId}/jobs/{id}",
    summary: "Edit a job; applies from its next occurrence and never touches a run in flight.",
    access: "admin",
    body: "JobEdit",
    answers: jobAnswer("The edited job."),
    errors: { bad_request: JOB_RULES },
  },
  {
    method: "delete",
    path: "/admin/chats/{chatId}/jobs/{id}",
    summary: "Cancel (remove) a job; an agent run in progress is not aborted.",
    access: "admin",
    body: "EmptyBody",
    answers: [[204, "Cancelled."]],
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/jobs/{id}/run",
    summary: "Run the job now: a manual run, nothing rescheduled or deleted.",
    access: "admin",
    body: "EmptyBody",
    answers: jobAnswer("The job after the action."),
    errors: { conflict: "a run of the job is in flight (`Job <id> is still running.`)" },
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/jobs/{id}/pause",
    summary: "Pause the job: kept, with nextRunAt null.",
    access: "admin",
    body: "EmptyBody",
    answers: jobAnswer("The job after the action."),
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/jobs/{id}/resume",
    summary: "Resume the job: a cron job from now; a one-off at its time, at once when that has passed.",
    access: "admin",
    body: "EmptyBody",
    answers: jobAnswer("The job after the action."),
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/jobs/{id}/skip",
    summary: "Skip the job's next occurrence: recorded in its history as skipped (`skipped by hand`), nextRunAt moves to the one after.",
    access: "admin",
    body: "EmptyBody",
    answers: jobAnswer("The job after the skip."),
    errors: { bad_request: "a one-off (`k7m2q runs once; cancel or edit it instead.`), a paused job or one with no next run" },
  },
  {
    method: "post",
    path: "/admin/chats/{chatId}/jobs/{id}/hook",
    summary: "Make or replace the job's hook: a secret URL (and, with EMAIL_DOMAIN, an address) that runs it. Shown once; a new one replaces it.",
    access: "admin",
    body: "EmptyBody",
    answers: [[201, "The hook's URL and address.", "HookAddresses"]],
  },
  {
    method: "delete",
    path: "/admin/chats/{chatId}/jobs/{id}/hook",
    summary: "Revoke the job's hook: its URL and address find nothing from now on.",
    access: "admin",
    body: "EmptyBody",
    answers: [[204, "Revoked (also when it had none)."]],
  },
  {
    method: "get",
    path: "/admin/chats/{chatId}/jobs/{id}/runs",
    summary: `The job's last ${LIMITS.runsKept} runs, newest first.`,
    access: "admin",
    answers: [[200, "The runs.", "RunList"]],
  },
];
