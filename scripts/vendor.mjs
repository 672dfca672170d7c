#!/usr/bin/env node
/**
 * Builds the third-party modules the Worker loads on first use into src/vendor/, which wrangler uploads as
 * modules of their own (wrangler.toml `find_additional_modules`, `base_dir = "./src/vendor"`) and
 * src/vendor/load.ts imports. Wrangler inlines every `import()` of a package into the Worker's one module, so a
 * package imported lazily is still parsed at every cold start; built here, it is neither in the main module nor
 * parsed until it is used.
 *
 * - `chrono/`: chrono-node's locales (dates as people write them), one ES module per locale (`en.mjs`, `de.mjs`
 *   …) and the chunks they share. Each locale's "N units ago" parser is replaced by one that never matches: a
 *   past duration is never a reminder's time, and English's pattern for it is the costliest chrono has (≈ 40 ms
 *   when V8 compiles it to machine code on its second use).
 * - `postal-mime/`: postal-mime (a raw email read into its parts), one module, for the Worker's `email` handler.
 *
 * `node scripts/vendor.mjs` writes the files (after upgrading chrono-node, postal-mime or esbuild);
 * test/unit/vendor.test.ts fails when they differ from what this builds.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
export const VENDOR_DIR = path.join(root, "src", "vendor");
/** The folders of src/vendor/ this script owns (load.ts beside them is written by hand). */
const FOLDERS = ["chrono", "postal-mime"];

/** The locales /remind and /every read (src/words/chrono.ts). */
export const CHRONO_LOCALES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "ja"];

/**
 * An installed package's version, for the files' header.
 * @param {string} name
 */
function versionOf(name) {
  const pkg = JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8"));
  return String(pkg.version);
}

/**
 * Entries given as `entry:<export list>|<module>`, so that a build takes only what the Worker uses of a package
 * (chrono's locale entries also export `strict`, `parse` and their configurations, which nothing here uses).
 * @type {import("esbuild").Plugin}
 */
const reExports = {
  name: "re-exports",
  setup(b) {
    b.onResolve({ filter: /^entry:/ }, (args) => ({ path: args.path.slice("entry:".length), namespace: "entry" }));
    b.onLoad({ filter: /.*/, namespace: "entry" }, (args) => {
      const [names, module] = args.path.split("|");
      return { contents: `export { ${names} } from "${module}";`, resolveDir: root, loader: "js" };
    });
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
 * One folder's modules, built.
 * @param {string} folder
 * @param {Record<string, string>} entryPoints
 * @param {string} banner
 * @param {import("esbuild").Plugin[]} plugins
 * @returns {Promise<Map<string, string>>} path under src/vendor → text
 */
async function buildFolder(folder, entryPoints, banner, plugins) {
  const outdir = path.join(VENDOR_DIR, folder);
  const result = await build({
    absWorkingDir: root,
    // Inputs named by their path under the project (node_modules/…) even where node_modules is a link, so
    // that a chunk's hashed name is the same in every checkout.
    preserveSymlinks: true,
    entryPoints,
    bundle: true,
    splitting: true,
    format: "esm",
    target: "es2024",
    minify: true,
    // Cyrillic and Japanese as they are, not as \u escapes (a third of the bytes of ru and uk).
    charset: "utf8",
    legalComments: "none",
    // Debug output (chrono's `context.debug(() => console.log(…))`), which only a debug option prints.
    drop: ["console"],
    banner: { js: `// ${banner}, built by scripts/vendor.mjs: do not edit.` },
    outdir,
    // ES modules by their name: wrangler's default rules upload *.mjs as ES modules (a rule of our own for
    // *.js would do as well, but @cloudflare/vitest-plugin then stops loading CommonJS dependencies).
    outExtension: { ".js": ".mjs" },
    write: false,
    logLevel: "error",
    plugins: [reExports, ...plugins],
  });
  const files = new Map();
  for (const file of result.outputFiles) files.set(path.relative(VENDOR_DIR, file.path), file.text);
  return files;
}

/**
 * The files of src/vendor/'s folders as this build makes them: path → text (each module's `.mjs` and the
 * `.d.mts` that gives it the package's types, the shared chunks).
 * @returns {Promise<Map<string, string>>}
 */
export async function buildVendored() {
  const chrono = await buildFolder(
    "chrono",
    Object.fromEntries(CHRONO_LOCALES.map((l) => [l, `entry:casual|chrono-node/${l}`])),
    `chrono-node ${versionOf("chrono-node")} (MIT, Wanasit Tanakitrungruang)`,
    [noAgoParsers],
  );
  for (const l of CHRONO_LOCALES)
    chrono.set(`chrono/${l}.d.mts`, `// The locale's entry point (scripts/vendor.mjs).\nexport { casual } from "chrono-node/${l}";\n`);
  const mime = await buildFolder(
    "postal-mime",
    { "postal-mime": "entry:default|postal-mime" },
    `postal-mime ${versionOf("postal-mime")} (MIT-0, Andris Reinman)`,
    [],
  );
  mime.set("postal-mime/postal-mime.d.mts", `// The package's entry point (scripts/vendor.mjs).\nexport { default } from "postal-mime";\n`);
  return new Map([...chrono, ...mime]);
}

/**
 * The files now in src/vendor/'s folders.
 * @returns {Map<string, string>}
 */
export function vendoredFiles() {
  const files = new Map();
  for (const folder of FOLDERS)
    for (const name of readdirSync(path.join(VENDOR_DIR, folder))) files.set(`${folder}/${name}`, readFileSync(path.join(VENDOR_DIR, folder, name), "utf8"));
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await buildVendored();
  for (const folder of FOLDERS) {
    rmSync(path.join(VENDOR_DIR, folder), { recursive: true, force: true });
    mkdirSync(path.join(VENDOR_DIR, folder), { recursive: true });
  }
  for (const [name, text] of files) writeFileSync(path.join(VENDOR_DIR, name), text);
  console.log(`wrote ${files.size} files to ${path.relative(root, VENDOR_DIR)}`);
}
