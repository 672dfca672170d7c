/**
 * `npm run import` (scripts/import.mjs; issue 16) as a user runs it, against a stand-in for the Worker on
 * 127.0.0.1 that records the request: what it reads for each format (acpbot's schedules folder with a script's
 * content taken from the repo, Playa's settings found beside jobs.json, the commitments text), the token it
 * sends, what it prints, and its exit codes.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
    answer = { status: 400, body: { error: { code: "bad_request", message: '"chatId" is required for the acpbot format: the chat its schedules go to, such as "123456789".' } } };
    const refused = await run(["--format", "acpbot", path.join(fixtures, "acpbot/.acpbot/schedules")]);
    expect(refused).toEqual({ code: 1, stdout: "", stderr: '400: "chatId" is required for the acpbot format: the chat its schedules go to, such as "123456789".\n' });
    const count = seen.length;
    const wrong = await run(["--format", "csv", "x"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe("--format must be playa, acpbot or commitments.\nUsage: npm run import -- --format playa|acpbot|commitments [--chat ID] [--settings FILE] PATH\n");
    expect((await run(["--format", "acpbot", path.join(fixtures, "commitments.jsonl")])).stderr).toBe("For acpbot, PATH is the schedules folder (.acpbot/schedules), not a file.\n");
    expect(seen.length).toBe(count);
  });
});
