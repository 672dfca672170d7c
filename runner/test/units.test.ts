/**
 * The runner's pure parts in plain Node (the wire contract has contract.test.ts): bounded capture and its
 * marker, stderr tails, exit codes, the workspace path guard, the environment config, and what the image
 * (no Docker here) is built to do.
 */
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { HeadTailCapture, lastLines, omittedMarker } from "../src/capture.ts";
import { loadConfig } from "../src/config.ts";
import { HEAD_BYTES, TAIL_BYTES } from "../src/contract.ts";
import { signalExitCode } from "../src/outcome.ts";
import { prepareWorkspace, prepareWorkspaceRoot } from "../src/workspace.ts";

describe("capture", () => {
  const capture = (...chunks: (string | Buffer)[]) => {
    const c = new HeadTailCapture();
    for (const chunk of chunks) c.write(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    return c.result();
  };

  it("keeps a stream of up to 64 KiB whole, however it was chunked", () => {
    const text = Array.from({ length: HEAD_BYTES + TAIL_BYTES }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    expect(capture(text)).toEqual({ text, truncated: false });
    expect(capture(text.slice(0, 1000), text.slice(1000, 50_000), text.slice(50_000))).toEqual({ text, truncated: false });
  });

  it("keeps the head, a marker with the bytes left out, and the tail of a longer stream", () => {
    const chunks = Array.from({ length: 100 }, (_, i) => `${String(i).padStart(3, "0")}:${"x".repeat(996)}`);
    const whole = chunks.join("");
    const result = capture(...chunks);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe(whole.slice(0, HEAD_BYTES) + omittedMarker(whole.length - HEAD_BYTES - TAIL_BYTES) + whole.slice(-TAIL_BYTES));
  });

  it("writes the marker as one line of its own", () => {
    expect(omittedMarker(52363264)).toBe("\n[... 52363264 bytes omitted ...]\n");
  });

  it("cuts on character boundaries and counts the bytes dropped there", () => {
    // "é" is 2 bytes: an odd prefix puts a character across both cuts.
    const text = `a${"é".repeat(40_000)}`;
    const result = capture(text);
    const bytes = Buffer.byteLength(text);
    expect(result.truncated).toBe(true);
    expect(result.text).not.toContain("\uFFFD");
    const [head, tail] = result.text.split(/\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n/);
    const omitted = Number(/(\d+) bytes omitted/.exec(result.text)?.[1]);
    expect(Buffer.byteLength(head!) + omitted + Buffer.byteLength(tail!)).toBe(bytes);
    expect(Buffer.byteLength(head!)).toBe(HEAD_BYTES - 1);
    expect(Buffer.byteLength(tail!)).toBe(TAIL_BYTES);
  });

  it("takes the last lines without the newlines that end the text", () => {
    expect(lastLines("a\nb\nc\n\n", 2)).toBe("b\nc");
    expect(lastLines("only", 20)).toBe("only");
    expect(lastLines("", 20)).toBe("");
  });
});

describe("exit codes", () => {
  it("reports a signal as a shell would: 128 + its number", () => {
    expect(signalExitCode("SIGKILL")).toBe(137);
    expect(signalExitCode("SIGTERM")).toBe(143);
    expect(signalExitCode("SIGINT")).toBe(130);
  });
});

describe("workspaces", () => {
  it("makes <root>/<chatId> and refuses anything that is not one segment inside the root", async () => {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "cuckoo-ws-")));
    try {
      expect(await prepareWorkspace(root, "42")).toBe(path.join(root, "42"));
      for (const id of ["..", ".", "../x", "a/b", "/etc", ""]) {
        await expect(prepareWorkspace(root, id)).rejects.toThrow(/does not name a directory inside the workspace root/);
      }
      symlinkSync(os.tmpdir(), path.join(root, "43"));
      await expect(prepareWorkspace(root, "43")).rejects.toThrow(/resolves outside the workspace root/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("makes the root 0700, or with a script user one it may enter but not list (0711)", () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), "cuckoo-ws-root-"));
    const mode = (dir: string) => statSync(dir).mode & 0o777;
    try {
      expect(mode(prepareWorkspaceRoot(path.join(parent, "own"), null))).toBe(0o700);
      expect(mode(prepareWorkspaceRoot(path.join(parent, "shared"), { uid: 65534, gid: 65534 }))).toBe(0o711);
      // An existing root that others cannot enter gets --x for them, and nothing more.
      const existing = path.join(parent, "existing");
      prepareWorkspaceRoot(existing, null);
      chmodSync(existing, 0o750);
      expect(mode(prepareWorkspaceRoot(existing, { uid: 65534, gid: 65534 }))).toBe(0o751);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("config", () => {
  it("needs RUNNER_SECRET and has defaults for the rest", () => {
    expect(loadConfig({})).toEqual({
      ok: false,
      error: "RUNNER_SECRET is required: set it to the secret the Worker shares with the runner, such as RUNNER_SECRET=$(openssl rand -hex 32) npm run runner.",
    });
    expect(loadConfig({ RUNNER_SECRET: "s" })).toEqual({
      ok: true,
      config: {
        secret: "s",
        host: "127.0.0.1",
        port: 8788,
        workspaceRoot: path.join(os.tmpdir(), "cuckoo-workspaces"),
        maxConcurrency: 8,
        scriptUser: null,
      },
    });
  });

  it("reads the port, host, root and limit, and names a bad one", () => {
    const env = { RUNNER_SECRET: "s", RUNNER_PORT: "0", RUNNER_HOST: "0.0.0.0", WORKSPACE_ROOT: "/tmp/w", RUNNER_MAX_CONCURRENCY: "2" };
    expect(loadConfig(env)).toEqual({
      ok: true,
      config: { secret: "s", host: "0.0.0.0", port: 0, workspaceRoot: "/tmp/w", maxConcurrency: 2, scriptUser: null },
    });
    expect(loadConfig({ ...env, RUNNER_PORT: "http" })).toEqual({
      ok: false,
      error: "RUNNER_PORT must be a port number from 0 to 65535, such as 8788.",
    });
    expect(loadConfig({ ...env, RUNNER_MAX_CONCURRENCY: "0" })).toEqual({
      ok: false,
      error: "RUNNER_MAX_CONCURRENCY must be a whole number from 1 to 1000, such as 8.",
    });
  });

  describe("the script user", () => {
    const env = { RUNNER_SECRET: "s", RUNNER_SCRIPT_UID: "10001", RUNNER_SCRIPT_GID: "10002" };
    const error = (error: string) => ({ ok: false, error });

    it("takes both ids for a runner running as root, and neither means the runner's own user", () => {
      expect(loadConfig(env, 0)).toMatchObject({ ok: true, config: { scriptUser: { uid: 10001, gid: 10002 } } });
      expect(loadConfig({ RUNNER_SECRET: "s" }, 0)).toMatchObject({ ok: true, config: { scriptUser: null } });
      expect(loadConfig({ RUNNER_SECRET: "s", RUNNER_SCRIPT_UID: "", RUNNER_SCRIPT_GID: " " }, 1000)).toMatchObject({
        ok: true,
        config: { scriptUser: null },
      });
    });

    it("refuses one without the other", () => {
      const together = error(
        "RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID go together: set both, such as RUNNER_SCRIPT_UID=10001 RUNNER_SCRIPT_GID=10001, or neither.",
      );
      expect(loadConfig({ ...env, RUNNER_SCRIPT_GID: undefined }, 0)).toEqual(together);
      expect(loadConfig({ ...env, RUNNER_SCRIPT_UID: "" }, 0)).toEqual(together);
    });

    it.each(["nobody", "0", "-1", "1.5", "2147483648"])("refuses %j as an id, naming the variable", (id) => {
      expect(loadConfig({ ...env, RUNNER_SCRIPT_UID: id }, 0)).toEqual(
        error("RUNNER_SCRIPT_UID must be a user id from 1 to 2147483647 (not 0, root), such as 10001."),
      );
      expect(loadConfig({ ...env, RUNNER_SCRIPT_GID: id }, 0)).toEqual(
        error("RUNNER_SCRIPT_GID must be a group id from 1 to 2147483647 (not 0, root), such as 10001."),
      );
    });

    it("refuses them when the runner is not root, which could not switch users", () => {
      expect(loadConfig(env, 1000)).toEqual(
        error(
          "RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID need a runner running as root to start scripts as that user, but it runs as uid 1000, not root; start it as root, or unset both to run scripts as the runner's own user.",
        ),
      );
      // null: a platform without user ids.
      expect(loadConfig(env, null)).toEqual(
        error(
          "RUNNER_SCRIPT_UID and RUNNER_SCRIPT_GID need a runner running as root to start scripts as that user, but it does not run as root; start it as root, or unset both to run scripts as the runner's own user.",
        ),
      );
    });
  });
});

describe("the image", () => {
  const dockerfile = readFileSync(path.resolve(import.meta.dirname, "../Dockerfile"), "utf8");
  const instructions = dockerfile.split("\n").filter((line) => !line.startsWith("#"));

  it("runs the runner as root and every script as watcher (10001), in a root it may enter but not list", () => {
    // No USER: the runner needs root to switch users, and refuses RUNNER_SCRIPT_UID without it.
    expect(instructions.filter((line) => /^USER\b/.test(line))).toEqual([]);
    expect(dockerfile).toMatch(/^ +RUNNER_SCRIPT_UID=10001 \\$/m);
    expect(dockerfile).toMatch(/^ +RUNNER_SCRIPT_GID=10001$/m);
    expect(dockerfile).toMatch(/groupadd --gid 10001 watcher/);
    expect(dockerfile).toMatch(/useradd --uid 10001 --gid 10001 .*watcher/);
    expect(dockerfile).toMatch(/^ +WORKSPACE_ROOT=\/tmp\/cuckoo-workspaces \\$/m);
    expect(dockerfile).toMatch(/install -d -o root -g root -m 0711 \/tmp\/cuckoo-workspaces/);
    expect(dockerfile).toMatch(/^RUN chmod -R go-w \/app$/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--", "node", "src\/main.ts"\]$/m);
  });
});
