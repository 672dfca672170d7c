/**
 * Every reference resolves from a clone (issues 23 and 30). README.md, docs/ and the READMEs of runner/ and
 * examples/ cite nothing a clone does not have (no `../shared/…`, no "DESIGN §", no section sign of another file,
 * no path of the workspace the project was built in), and every relative link names a file or folder of the
 * repository, and a heading of it when it names one (`api.md#access`), as GitHub's anchors spell them. Every other
 * tracked file (code, tests, bench, scripts, `wrangler.toml`, CI) cites nothing a clone does not have either, and
 * each `docs/….md#anchor` it names exists. The design records under docs/design/ are history and keep their
 * words. A failure names the file, the line and what to fix.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Every .md file below `dir`, as a path relative to the repository. */
function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return markdownUnder(rel);
    return entry.name.endsWith(".md") ? [rel] : [];
  });
}

const docs = (): string[] => ["README.md", "runner/README.md", "examples/own-agent/README.md", ...markdownUnder("docs")];

/** This file: its examples of what is refused are the citations it refuses. */
const SELF = "test/unit/docs-links.test.ts";

/**
 * Every file git tracks that is not a doc above, a design record or this file, read as text (binary files, which
 * hold a NUL byte, are left out); nor the third-party code scripts/vendor.mjs builds into src/vendor/ (postal-mime's
 * entity table has a "§" that cites nothing).
 */
function trackedOutsideDocs(): string[] {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  const skip = new Set([...docs(), SELF]);
  const vendored = (file: string) => file.startsWith("src/vendor/") && file.endsWith(".mjs");
  return tracked.filter((file) => !skip.has(file) && !file.startsWith("docs/") && !vendored(file) && existsSync(path.join(root, file)));
}

/** What is wrong with `docs/….md#anchor` named in a file outside docs/ (relative to the repository), or null. */
function brokenDocReference(reference: string, anchorsOf: (file: string) => Set<string>): string | null {
  const [file, anchor] = reference.split("#", 2) as [string, string | undefined];
  if (!existsSync(path.join(root, file))) return `names ${reference}, but ${file} does not exist`;
  if (anchor === undefined || anchor === "") return null;
  return anchorsOf(file).has(anchor) ? null : `names ${reference}, but ${file} has no heading with the anchor #${anchor}`;
}

/** A file's lines with fenced code blocks blanked (a `#` there is a shell comment, a link an example). */
function outsideFences(text: string): string[] {
  let fence: string | null = null;
  return text.split("\n").map((line) => {
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== null) {
      if (open && open[1]!.startsWith(fence)) fence = null;
      return "";
    }
    if (open) {
      fence = open[1]!;
      return "";
    }
    return line;
  });
}

/** A file's lines outside code: fenced blocks blanked, inline code spans removed. */
const prose = (text: string): string[] => outsideFences(text).map((line) => line.replace(/(`+)[^`]*?\1/g, ""));

/** The citations a clone cannot follow, each with what is wrong with it; a line gets the first that fits. */
const FORBIDDEN: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\.\.\/shared\b/, why: 'cites "../shared", which a clone does not have' },
  { pattern: /DESIGN §/, why: 'cites "DESIGN §", which a clone does not have: say it in docs/ or link the doc that does' },
  { pattern: /§/, why: 'cites a section ("§") of a file the repository does not have' },
  { pattern: /\/work\//, why: "names a path of the workspace (/work/), which a clone does not have" },
];

/** What a line cites that a clone cannot follow, or null. */
const citation = (line: string): string | null => FORBIDDEN.find(({ pattern }) => pattern.test(line))?.why ?? null;

/** GitHub's anchor for a heading: its text lower-cased, markup and punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  // HTML tags are dropped outside code spans only: inside one, `<id>` is text, and GitHub keeps it.
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<[^>]+>/g, "")))
    .join("")
    .replace(/[`*]/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings; a repeated one gets `-1`, `-2` … as on GitHub. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of outsideFences(readFileSync(path.join(root, file), "utf8"))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** What is wrong with the link `target` written in `file` (relative to the repository), or null. */
function brokenLink(file: string, target: string, anchorsOf: (file: string) => Set<string>): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:: not ours to check
  if (target.startsWith("/")) return `links to "${target}", an absolute path: write it relative to ${file}`;
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved = pathPart === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURIComponent(pathPart)));
  if (resolved.startsWith("../")) return `links to "${target}", outside the repository`;
  if (!existsSync(path.join(root, resolved))) return `links to "${target}", but ${resolved} does not exist`;
  if (anchor === undefined || anchor === "") return null;
  if (!resolved.endsWith(".md") || statSync(path.join(root, resolved)).isDirectory()) return null;
  return anchorsOf(resolved).has(anchor) ? null : `links to "${target}", but ${resolved} has no heading with the anchor #${anchor}`;
}

/** Every problem of every doc, one line each: `<file>:<line>: <what>`. */
function problems(): string[] {
  const cache = new Map<string, Set<string>>();
  const anchorsOf = (file: string): Set<string> => {
    let found = cache.get(file);
    if (!found) {
      found = anchors(file);
      cache.set(file, found);
    }
    return found;
  };
  const out: string[] = [];
  for (const file of trackedOutsideDocs()) {
    const text = readFileSync(path.join(root, file), "utf8");
    if (text.includes("\0")) continue;
    text.split("\n").forEach((line, i) => {
      const why = citation(line);
      if (why) out.push(`${file}:${i + 1}: ${why}`);
      for (const match of line.matchAll(/\bdocs\/[\w./-]+\.md(?:#[\w-]+)?/g)) {
        const problem = brokenDocReference(match[0], anchorsOf);
        if (problem) out.push(`${file}:${i + 1}: ${problem}`);
      }
    });
  }
  for (const file of docs()) {
    const raw = readFileSync(path.join(root, file), "utf8").split("\n");
    raw.forEach((line, i) => {
      const why = citation(line);
      if (why) out.push(`${file}:${i + 1}: ${why}`);
    });
    prose(raw.join("\n")).forEach((line, i) => {
      for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*(\S+)/g)) {
        const problem = brokenLink(file, (match[1] ?? match[2])!, anchorsOf);
        if (problem) out.push(`${file}:${i + 1}: ${problem}`);
      }
    });
  }
  return out;
}

describe("the docs stand alone", () => {
  it("cite nothing outside the repository, and every relative link resolves", () => {
    expect(problems()).toEqual([]);
  });

  it("covers every tracked file but the design records: code, tests, bench, scripts, wrangler.toml and CI", () => {
    const files = trackedOutsideDocs();
    for (const file of [
      "src/index.ts",
      "src/chat/ChatScheduler.ts",
      "test/worker/helpers.ts",
      "bench/run.mjs",
      "scripts/dev.mjs",
      "wrangler.toml",
      ".ci/run",
      "page/js/main.js",
    ])
      expect(files).toContain(file);
    expect(files.some((f) => f.startsWith("docs/"))).toBe(false);
    expect(files).not.toContain(SELF);
  });

  it("covers README.md and every doc under docs/, design records included", () => {
    const files = docs();
    expect(files).toContain("README.md");
    expect(files).toContain("docs/api.md");
    expect(files.filter((f) => f.startsWith("docs/design/")).length).toBeGreaterThanOrEqual(23);
  });
});

describe("the checks themselves", () => {
  const none = (): Set<string> => new Set();

  it("spell anchors as GitHub does", () => {
    expect(slug("`PATCH /admin/chats/:chatId/jobs/:id`")).toBe("patch-adminchatschatidjobsid");
    expect(slug("`cron`: repeatedly")).toBe("cron-repeatedly");
    expect(slug("Changing a chat's zone")).toBe("changing-a-chats-zone");
    expect(slug("The model agent (`AGENT=llm`)")).toBe("the-model-agent-agentllm");
    expect(slug("Many prompts at once (08:00)")).toBe("many-prompts-at-once-0800");
    expect(slug("`/edit <id> <when>`, `/edit <id> text <new text>`")).toBe("edit-id-when-edit-id-text-new-text");
    expect(slug("Sent <b>bold</b>")).toBe("sent-bold");
  });

  it("name a missing file, a missing heading, a path outside the repository and an absolute path", () => {
    expect(brokenLink("docs/api.md", "nope.md", none)).toBe('links to "nope.md", but docs/nope.md does not exist');
    expect(brokenLink("docs/api.md", "agent.md#nope", anchorsFor)).toBe('links to "agent.md#nope", but docs/agent.md has no heading with the anchor #nope');
    expect(brokenLink("README.md", "../shared/spec/DESIGN.md", none)).toBe('links to "../shared/spec/DESIGN.md", outside the repository');
    expect(brokenLink("docs/api.md", "/docs/api.md", none)).toBe('links to "/docs/api.md", an absolute path: write it relative to docs/api.md');
    expect(brokenLink("docs/api.md", "agent.md#the-lease", anchorsFor)).toBeNull();
    expect(brokenLink("docs/design/0007-watchers.md", "../../runner/README.md#the-contract", anchorsFor)).toBeNull();
    expect(brokenLink("docs/README.md", "../examples/own-agent/", none)).toBeNull();
    expect(brokenLink("docs/api.md", "https://example.com/x.md", none)).toBeNull();
  });

  it("name each citation a clone cannot follow, once per line", () => {
    expect(citation("The contract is [DESIGN](../shared/spec/DESIGN.md).")).toBe('cites "../shared", which a clone does not have');
    expect(citation("as DESIGN §6 asks")).toBe('cites "DESIGN §", which a clone does not have: say it in docs/ or link the doc that does');
    expect(citation("§8 fixes the runner's contract")).toBe('cites a section ("§") of a file the repository does not have');
    expect(citation("the recipe in /work/research/startup.md")).toBe("names a path of the workspace (/work/), which a clone does not have");
    expect(citation("The design fixes the rules ([time.md](../time.md#zones)).")).toBeNull();
  });

  it("name a docs/ reference in code whose file or heading does not exist", () => {
    expect(brokenDocReference("docs/time.md#zones", anchorsFor)).toBeNull();
    expect(brokenDocReference("docs/api.md", anchorsFor)).toBeNull();
    expect(brokenDocReference("docs/nope.md", anchorsFor)).toBe("names docs/nope.md, but docs/nope.md does not exist");
    expect(brokenDocReference("docs/time.md#nope", anchorsFor)).toBe("names docs/time.md#nope, but docs/time.md has no heading with the anchor #nope");
  });

  it("skip links inside code", () => {
    expect(prose("a `[x](nope.md)` b\n```\n[y](nope.md)\n```\n[z](z.md)")).toEqual(["a  b", "", "", "", "[z](z.md)"]);
  });
});

/** Real anchors, for the checks above. */
function anchorsFor(file: string): Set<string> {
  return anchors(file);
}
