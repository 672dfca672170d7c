/**
 * `npm run import` (scripts/import.mjs; issue 16) as a user runs it, against a stand-in for the Worker on
 * 127.0.0.1 that records the request: what it reads for each format (acpbot's schedules folder with a script's
 * content taken from the repo, Playa's settings found beside jobs.json, the commitments text), the token it
 * sends, what it prints, and its exit codes. A copy of the acpbot fixture with real symbolic links shows that
 * nothing is read from outside the repo (issue 22).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = path.join(root, "test/fixtures");

type Seen = { url: string; authorization: string | undefined; body: any };
const seen: Seen[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: { created: 0, skipped: 0, problems: [] } };
let server: Server;
let url = "";

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => resolve(text));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    seen.push({ url: req.url ?? "", authorization: req.headers.authorization, body: JSON.parse(await read(req)) });
    res.writeHead(answer.status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs the CLI with `args` against the stand-in; its exit code and output. */
function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Only what the CLI reads: not the vars of whoever runs the tests (an ADMIN_TOKEN of theirs, a CUCKOO_URL).
    const vars = { PATH: process.env.PATH ?? "", CUCKOO_URL: url, ...env } as unknown as typeof process.env;
    execFile(process.execPath, [path.join(root, "scripts/import.mjs"), ...args], { env: vars }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("npm run import", () => {
  it("sends acpbot's schedule files in name order, a script's content read from the repo when the file has none", async () => {
    answer = { status: 200, body: { created: 4, skipped: 1, problems: ["one problem."] } };
    const result = await run(["--format", "acpbot", "--chat", "9630101", path.join(fixtures, "acpbot/.acpbot/schedules")], { ADMIN_TOKEN: "admin-secret-1" });
    expect(result).toEqual({ code: 0, stdout: "Created 4 jobs; skipped 1 entry imported before.\n- one problem.\n", stderr: "" });
    const { url: target, authorization, body } = seen.at(-1)!;
    expect([target, authorization]).toEqual(["/admin/import", "Bearer admin-secret-1"]);
    expect(body.format).toBe("acpbot");
    expect(body.chatId).toBe("9630101");
    expect(body.data.map((f: { id: string }) => f.id)).toEqual(["dentist", "disk", "inbox", "mum", "price", "standup"]);
    const scripts = path.join(fixtures, "acpbot/.acpbot/schedules/scripts");
    expect(body.data[1].scriptContent).toBe(readFileSync(path.join(scripts, "disk.sh"), "utf8"));
    // A file that carries its content keeps it.
    expect(body.data[4].scriptContent).toBe(JSON.parse(readFileSync(path.join(fixtures, "acpbot/.acpbot/schedules/price.json"), "utf8")).scriptContent);
  });

  it("sends Playa's jobs.json with the chat-settings.json beside it", async () => {
    answer = { status: 200, body: { created: 1, skipped: 0, problems: [] } };
    const result = await run(["--format", "playa", path.join(fixtures, "playa/jobs.json")]);
    expect(result).toEqual({ code: 0, stdout: "Created 1 job; skipped 0 entries imported before.\n", stderr: "" });
    const { body, authorization } = seen.at(-1)!;
    expect(authorization).toBeUndefined();
    expect(body).toEqual({
      format: "playa",
      data: JSON.parse(readFileSync(path.join(fixtures, "playa/jobs.json"), "utf8")),
      settings: JSON.parse(readFileSync(path.join(fixtures, "playa/chat-settings.json"), "utf8")),
    });
  });

  it("sends the text of commitments.jsonl as it is, a relative PATH read from where npm was run (INIT_CWD)", async () => {
    await run(["--format", "commitments", "--chat", "9630201", "commitments.jsonl"], { INIT_CWD: fixtures });
    expect(seen.at(-1)!.body).toEqual({ format: "commitments", chatId: "9630201", data: readFileSync(path.join(fixtures, "commitments.jsonl"), "utf8") });
  });

  it("prints the Worker's sentence and exits 1 when it refuses; usage and 2 for wrong arguments", async () => {
    answer = {
      status: 400,
      body: { error: { code: "bad_request", message: '"chatId" is required for the acpbot format: the chat its schedules go to, such as "123456789".' } },
    };
    const refused = await run(["--format", "acpbot", path.join(fixtures, "acpbot/.acpbot/schedules")]);
    expect(refused).toEqual({
      code: 1,
      stdout: "",
      stderr: '400: "chatId" is required for the acpbot format: the chat its schedules go to, such as "123456789".\n',
    });
    const count = seen.length;
    const wrong = await run(["--format", "csv", "x"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe(
      "--format must be playa, acpbot or commitments.\nUsage: npm run import -- --format playa|acpbot|commitments [--chat ID] [--settings FILE] [--all-problems] PATH\n",
    );
    expect((await run(["--format", "acpbot", path.join(fixtures, "commitments.jsonl")])).stderr).toBe(
      "For acpbot, PATH is the schedules folder (.acpbot/schedules), not a file.\n",
    );
    expect(seen.length).toBe(count);
  });
});

describe("npm run import, acpbot's links (issue 22)", () => {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  /** A temporary copy of the acpbot fixture (the repo) and a folder outside it, with the links of each test. */
  function repoCopy(): { repo: string; outside: string; schedules: string } {
    const repo = mkdtempSync(path.join(os.tmpdir(), "cuckoo-acpbot-"));
    const outside = mkdtempSync(path.join(os.tmpdir(), "cuckoo-outside-"));
    made.push(repo, outside);
    cpSync(path.join(fixtures, "acpbot"), repo, { recursive: true });
    return { repo, outside, schedules: path.join(repo, ".acpbot/schedules") };
  }
  const schedule = (schedules: string, id: string, script: string) =>
    writeFileSync(path.join(schedules, `${id}.json`), JSON.stringify({ id, prompt: `Watch ${id}.`, script, cron: "0 * * * *", enabled: true }));

  it("leaves out a script, a folder on its way or a schedule file that links outside the repo, naming the link; a link inside is read", async () => {
    const { repo, outside, schedules } = repoCopy();
    writeFileSync(path.join(outside, "check.sh"), "#!/bin/sh\ncat ~/.ssh/id_ed25519\n");
    writeFileSync(path.join(outside, "other.json"), JSON.stringify({ id: "other", prompt: "Other.", cron: "0 9 * * *" }));
    mkdirSync(path.join(repo, "scripts"));
    symlinkSync("/etc/passwd", path.join(repo, "scripts/p.sh"));
    symlinkSync(outside, path.join(repo, "tools"));
    // Inside the repo, through two links: fine, and read.
    symlinkSync("../.acpbot/schedules/scripts/disk.sh", path.join(repo, "scripts/inner.sh"));
    symlinkSync("scripts", path.join(repo, "bin"));
    symlinkSync(path.join(outside, "other.json"), path.join(schedules, "leak.json"));
    symlinkSync(path.join(outside, "gone.json"), path.join(schedules, "zgone.json"));
    schedule(schedules, "p", "scripts/p.sh");
    schedule(schedules, "hosts", "tools/check.sh");
    schedule(schedules, "inner", "bin/inner.sh");
    schedule(schedules, "up", "../outside.sh");
    answer = { status: 200, body: { created: 6, skipped: 0, problems: [] } };

    const result = await run(["--format", "acpbot", "--chat", "9630101", schedules]);
    const real = realpathSync(outside);
    expect(result).toEqual({
      code: 0,
      stdout: [
        "Created 6 jobs; skipped 0 entries imported before.",
        `- hosts.json runs the script "tools/check.sh", which is outside the repo ("tools" links to ${real}); it was left out.`,
        `- leak.json is outside the repo (".acpbot/schedules/leak.json" links to ${real}/other.json); it was left out.`,
        '- p.json runs the script "scripts/p.sh", which is outside the repo ("scripts/p.sh" links to /etc/passwd); it was left out.',
        '- up.json runs the script "../outside.sh", which is outside the repo; it was left out.',
        "- zgone.json is a link to nothing that exists; it was left out.",
        "",
      ].join("\n"),
      stderr: "",
    });
    const { body } = seen.at(-1)!;
    expect(body.data.map((f: { id: string }) => f.id)).toEqual(["dentist", "disk", "inbox", "inner", "mum", "price", "standup"]);
    expect(body.data.find((f: { id: string }) => f.id === "inner").scriptContent).toBe(readFileSync(path.join(schedules, "scripts/disk.sh"), "utf8"));
    expect(JSON.stringify(body)).not.toContain("root:");
    expect(JSON.stringify(body)).not.toContain("id_ed25519");
  });

  it("prints the first 20 problems and how many more, and every one with --all-problems", async () => {
    const { schedules } = repoCopy();
    const problems = Array.from({ length: 24 }, (_, i) => `Problem ${i + 1}.`);
    answer = { status: 200, body: { created: 0, skipped: 0, problems } };
    writeFileSync(path.join(schedules, "broken.json"), "{");
    const lines = (stdout: string) => stdout.trimEnd().split("\n");

    const some = lines((await run(["--format", "acpbot", "--chat", "9630101", schedules])).stdout);
    expect(some).toHaveLength(1 + 20 + 1);
    expect(some[1]).toMatch(/^- broken\.json is not JSON \(.+\); it was left out\.$/);
    expect(some.slice(2, 21)).toEqual(problems.slice(0, 19).map((p) => `- ${p}`));
    expect(some[21]).toBe("… and 5 more problems (25 in all); add --all-problems to print every one.");

    const all = lines((await run(["--format", "acpbot", "--chat", "9630101", "--all-problems", schedules])).stdout);
    expect(all.slice(2)).toEqual(problems.map((p) => `- ${p}`));
    expect(all).toHaveLength(1 + 25);
  });
});
