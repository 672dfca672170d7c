/**
 * The modules in src/vendor/ (chrono-node's locales, postal-mime) are what scripts/vendor.mjs builds from the
 * installed packages (issue 24 item 7, issue 34): after an upgrade of one of them or of esbuild, run `node
 * scripts/vendor.mjs`. The vendored locales read as chrono reads, less the "N units ago" parser; the vendored
 * postal-mime reads a mail as the package does.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module without types
import { root, wranglerBin, wranglerEnv } from "../../scripts/lib/local.mjs";

type Vendor = { buildVendored(): Promise<Map<string, string>>; vendoredFiles(): Map<string, string> };

describe("the vendored modules", () => {
  it("are the build of the installed packages, file for file", async () => {
    const script: Vendor = await import(new URL("../../scripts/vendor.mjs", import.meta.url).href);
    const built = await script.buildVendored();
    const vendored = script.vendoredFiles();
    expect([...vendored.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [name, text] of built) expect(vendored.get(name) === text, `${name} differs: run node scripts/vendor.mjs`).toBe(true);
  }, 30_000);

  it("read no past durations, and dates as chrono does", async () => {
    const { casual } = await import("../../src/vendor/chrono/en.mjs");
    const ref = { instant: new Date("2026-12-01T09:00:00Z"), timezone: 60 };
    // "ago" is not understood: no past instant comes of it (chrono-node's own English reads 28 Nov).
    expect(casual.parse("3 days ago", ref, { forwardDate: true }).map((r) => `${r.text} ${r.date().toISOString()}`)).toEqual([
      "3 days 2026-12-04T09:00:00.000Z",
    ]);
    expect(casual.parse("tomorrow 9am", ref, { forwardDate: true })[0]?.date().toISOString()).toBe("2026-12-02T08:00:00.000Z");
  });

  it("read a mail as the postal-mime package does", async () => {
    const vendored = (await import("../../src/vendor/postal-mime/postal-mime.mjs")).default;
    const { default: PostalMime } = await import("postal-mime");
    const raw = [
      "From: =?UTF-8?Q?J=C3=BCrgen?= <jurgen@example.com>",
      "Subject: =?UTF-8?B?UHJlaXMgZ2VzdW5rZW4=?=",
      "Message-ID: <a1@example.com>",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain; charset=iso-8859-1",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "Gr=FC=DFe: 49,90 =80",
      "--b",
      'Content-Type: application/pdf; name="r.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      "JVBERi0xLjQK",
      "--b--",
      "",
    ].join("\r\n");
    const mine = await vendored.parse(raw);
    const theirs = await PostalMime.parse(raw);
    expect(mine.text).toBe("Grüße: 49,90 €");
    expect({ ...mine, attachments: mine.attachments.length }).toEqual({ ...theirs, attachments: theirs.attachments.length });
  });
});

/** Strings only the vendored code has: none may be in the Worker's main module. */
const MARKERS = [
  { folder: "chrono", marker: "ANAST:720" },
  { folder: "postal-mime", marker: "iso-8859-6-i iso-ir-127" },
];

describe("the Worker's upload", () => {
  it("has the vendored modules beside its main module, imported by name and not inlined", () => {
    const out = mkdtempSync(path.join(tmpdir(), "cuckoo-upload-"));
    try {
      const built = spawnSync(process.execPath, [wranglerBin(), "deploy", "--dry-run", "--outdir", out, "--containers-rollout=none"], {
        cwd: root,
        encoding: "utf8",
        env: wranglerEnv(),
        timeout: 60_000,
      });
      expect(built.status, built.stderr).toBe(0);
      const uploaded = (folder: string) => readdirSync(path.join(out, folder)).sort();
      const vendored = (folder: string) =>
        readdirSync(path.join(root, "src/vendor", folder))
          .filter((f) => f.endsWith(".mjs"))
          .sort();
      expect(uploaded("chrono")).toEqual(vendored("chrono"));
      expect(uploaded("postal-mime")).toEqual(["postal-mime.mjs"]);
      const main = readFileSync(path.join(out, "index.js"), "utf8");
      for (const l of ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "ja"]) expect(main).toContain(`import("./chrono/${l}.mjs")`);
      expect(main).toContain('import("./postal-mime/postal-mime.mjs")');
      for (const { folder, marker } of MARKERS) {
        const code = vendored(folder).map((f) => readFileSync(path.join(root, "src/vendor", folder, f), "utf8"));
        expect(code.join("\n"), folder).toContain(marker);
        expect(main.includes(marker), `${folder} is inlined in the main module`).toBe(false);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 60_000);
});
