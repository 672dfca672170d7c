#!/usr/bin/env node
/**
 * Builds chrono-node's locales into src/words/vendor/chrono/ (issue 24 item 7): one ES module per locale
 * (`en.mjs`, `de.mjs` …) and the chunks they share, minified, which wrangler uploads as modules of their own
 * (wrangler.toml `find_additional_modules`) and src/words/chrono.ts imports on first use. Wrangler inlines
 * every `import()` of a package into the Worker's one module; built here, chrono-node is neither in the main
 * module nor evaluated at start-up, and a message pays only for the locales its script can be written in.
 *
 * Each locale's "N units ago" parser is replaced by one that never matches: a past duration is never a
 * reminder's time, and English's pattern for it is the costliest chrono has (≈ 40 ms when V8 compiles it to
 * machine code on its second use).
 *
 * `node scripts/vendor-chrono.mjs` writes the files (after upgrading chrono-node or esbuild);
 * test/unit/words-chrono-vendor.test.ts fails when they differ from what this builds.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const VENDOR_DIR = path.join(root, "src", "words", "vendor", "chrono");

/** The locales /remind and /every read (src/words/chrono.ts). */
export const CHRONO_LOCALES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "ja"];

/** chrono-node's version, for the files' header. */
function chronoVersion() {
  const pkg = JSON.parse(readFileSync(path.join(root, "node_modules", "chrono-node", "package.json"), "utf8"));
  return String(pkg.version);
}

/**
 * Each locale's entry: its `casual` reader only (the package's entry also exports `strict`, `parse` and their
 * configurations, which nothing here uses).
 * @type {import("esbuild").Plugin}
 */
const casualOnly = {
  name: "casual-only",
  setup(b) {
    b.onResolve({ filter: /^casual:/ }, (args) => ({ path: args.path.slice("casual:".length), namespace: "casual" }));
    b.onLoad({ filter: /.*/, namespace: "casual" }, (args) => ({
      contents: `export { casual } from "chrono-node/${args.path}";`,
      resolveDir: root,
      loader: "js",
    }));
  },
};

/** @type {import("esbuild").Plugin} */
const noAgoParsers = {
  name: "no-ago-parsers",
  setup(b) {
    b.onLoad({ filter: /TimeUnitAgoFormatParser\.js$/ }, () => ({
      contents: "export default class NeverMatches { pattern() { return /(?!)/; } extract() { return null; } }",
      loader: "js",
    }));
  },
};

/**
 * The files of src/words/vendor/chrono/ as this build makes them: name → text (each locale's `.js` and its
 * `.d.mts`, the shared chunks).
 * @returns {Promise<Map<string, string>>}
 */
export async function buildChronoLocales() {
  const version = chronoVersion();
  const result = await build({
    absWorkingDir: root,
    // Inputs named by their path under the project (node_modules/chrono-node/…) even where node_modules is a
    // link, so that the chunk's hashed name is the same in every checkout.
    preserveSymlinks: true,
    entryPoints: Object.fromEntries(CHRONO_LOCALES.map((l) => [l, `casual:${l}`])),
    bundle: true,
    splitting: true,
    format: "esm",
    target: "es2024",
    minify: true,
    // Cyrillic and Japanese as they are, not as \u escapes (a third of the bytes of ru and uk).
    charset: "utf8",
    legalComments: "none",
    // chrono's debug output (`context.debug(() => console.log(…))`), which only its `debug` option prints.
    drop: ["console"],
    banner: { js: `// chrono-node ${version} (MIT, Wanasit Tanakitrungruang), built by scripts/vendor-chrono.mjs: do not edit.` },
    outdir: VENDOR_DIR,
    // ES modules by their name: wrangler's default rules upload *.mjs as ES modules (a rule of our own for
    // *.js would do as well, but @cloudflare/vitest-plugin then stops loading CommonJS dependencies).
    outExtension: { ".js": ".mjs" },
    write: false,
    logLevel: "error",
    plugins: [casualOnly, noAgoParsers],
  });
  const files = new Map();
  for (const file of result.outputFiles) files.set(path.relative(VENDOR_DIR, file.path), file.text);
  for (const l of CHRONO_LOCALES)
    files.set(`${l}.d.mts`, `// The locale's entry point (scripts/vendor-chrono.mjs).\nexport { casual } from "chrono-node/${l}";\n`);
  return files;
}

/** The files now in src/words/vendor/chrono/. */
export function vendoredFiles() {
  const files = new Map();
  for (const name of readdirSync(VENDOR_DIR)) files.set(name, readFileSync(path.join(VENDOR_DIR, name), "utf8"));
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await buildChronoLocales();
  rmSync(VENDOR_DIR, { recursive: true, force: true });
  mkdirSync(VENDOR_DIR, { recursive: true });
  for (const [name, text] of files) writeFileSync(path.join(VENDOR_DIR, name), text);
  console.log(`wrote ${files.size} files to ${path.relative(root, VENDOR_DIR)}`);
}
