/**
 * What a reply in English loads, and one in German (bench/languages.ts): bundled with code splitting, each chunk
 * marked so that the run lists the chunks it loaded; printed with the modules in each, grouped by folder.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** `src/texts/de.ts`, `src/words/lang/de.ts`, `chrono-node/de`: what a chunk's modules are, shortly. */
function named(inputs) {
  const names = new Set();
  for (const input of inputs) {
    const chrono = /chrono-node\/dist\/esm\/locales\/([a-z]{2})\//.exec(input);
    if (chrono) names.add(`chrono-node ${chrono[1]}`);
    else if (input.startsWith("src/")) names.add(input);
    else names.add(input.split("node_modules/").pop().split("/").slice(0, 2).join("/"));
  }
  return [...names].sort();
}

export async function languageBench({ out }) {
  const dir = join(out, "languages");
  const built = await build({
    entryPoints: ["bench/languages.ts"],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    outdir: dir,
    metafile: true,
    logLevel: "error",
  });
  // Each chunk says it was loaded: one line before its code.
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".js") && f !== "languages.js")) {
    const file = join(dir, f);
    writeFileSync(file, `(globalThis.__loaded ??= []).push(${JSON.stringify(f)});\n${readFileSync(file, "utf8")}`);
  }
  const inputsOf = Object.fromEntries(Object.entries(built.metafile.outputs).map(([o, v]) => [o.split("/").pop(), Object.keys(v.inputs)]));
  const r = spawnSync(process.execPath, [join(dir, "languages.js")], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`bench/languages.ts failed:\n${r.stderr}`);
  const runs = JSON.parse(r.stdout.trim().split("\n").at(-1));
  for (const run of runs) {
    const modules = run.chunks.flatMap((c) => named(inputsOf[c] ?? []));
    console.log(
      `${run.lang} replies (/help, a one-off and a repetition read and described, a place): ${run.ms.map((ms) => ms.toFixed(1)).join(", ")} ms in five rounds; ` +
        `${run.chunks.length} lazy chunks loaded${modules.length ? `: ${modules.join(", ")}` : ""}`,
    );
  }
  return runs;
}
