/**
 * @module The admin job routes (`/admin/chats/:chatId/jobs…`, DESIGN §3, §5, §10): bodies checked at the
 * edge with the job schemas, everything else asked of the chat's Durable Object, its results mapped to
 * statuses. Mounted under `/admin/chats/:chatId`, behind ADMIN_TOKEN.
 */
import { Hono } from "hono";
import { createJobInput, editJobInput, jobFilter, type Job, type JobList, type Run } from "../schemas/jobs";
import { readJson } from "./body";
import { checkChatId, chatIdOf, chatStub, jobIdOf, noBody, unwrap } from "./chat-rpc";
import type { AppEnv } from "./context";
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
  const job: Job = unwrap(await chatStub(c.env, chatId).createJob(chatId, input, "admin"));
  return c.json({ job }, 201);
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

/** `/run`, `/pause`, `/resume` (DESIGN §5, §10): no body, the job after the action. */
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

jobs.get("/:id/runs", async (c) => {
  const chatId = chatIdOf(c);
  const id = jobIdOf(c);
  const runs: Run[] = unwrap(await chatStub(c.env, chatId).jobRuns(chatId, id));
  return c.json({ runs }, 200);
});
