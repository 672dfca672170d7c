/**
 * Arrows point one way between the folders of src/ (issue 23): the folder graph, built from the sources' own
 * imports (static, type-only and dynamic `import()`), has no cycle of any length, and the named rules hold
 * (the words over the time engine, the chat object over the Telegram edge, issue 30). A node is a folder (`chat`,
 * `chat/store`), or a module at the top of src/ (`config.ts`), which every folder may use and which the entry
 * (`index.ts`) sits above. A failure names the cycle, such as `chat → telegram → chat`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");

/** Every .ts file below `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Nodes are folders (`folders`) or the files themselves (`files`). */
type Grain = "folders" | "files";

/** The node a file or folder of src/ belongs to; null outside src/. */
function nodeOf(file: string, isFolder = false, grain: Grain = "folders"): string | null {
  const rel = path.relative(src, file);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return null;
  if (grain === "files") return rel.split(path.sep).join("/");
  const folder = isFolder ? rel : path.dirname(rel);
  return folder === "." ? rel : folder.split(path.sep).join("/");
}

/** The node a relative import specifier of `from` names: a module file, or a folder through its index. */
function target(from: string, specifier: string, grain: Grain): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const file of [base, `${base}.ts`, `${base}.d.ts`, path.join(base, "index.ts")]) {
    try {
      if (statSync(file).isFile()) return nodeOf(file, false, grain);
    } catch {
      // not this one
    }
  }
  try {
    if (statSync(base).isDirectory()) return nodeOf(base, true);
  } catch {
    // no such folder either
  }
  throw new Error(`${path.relative(src, from)} imports "${specifier}", which names no file`);
}

/**
 * The module specifiers a source names: `import` and `export … from` (type-only too), `import("…")` wherever it
 * stands, and `import("…")` types. Read from the syntax tree: TypeScript's `preProcessFile` scanner missed an
 * `import()` nested in a call's arguments (`cityNames((await import("./cities/en")).cities)`).
 */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** node → the other nodes it imports from (static, type-only and dynamic imports alike). */
function importGraph(grain: Grain = "folders"): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(src)) {
    const from = nodeOf(file, false, grain)!;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const fileName of specifiers(file)) {
      if (!fileName.startsWith(".")) continue; // a package
      const to = target(file, fileName, grain);
      if (to !== null && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** One cycle of each strongly connected part of the graph that has more than one node (Tarjan's algorithm). */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const parts: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1) parts.push(part);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  // Within a part every node reaches every other: the shortest way back to its first node (by name) is a cycle.
  return parts.map((part) => {
    const members = new Set(part);
    const start = [...part].sort()[0]!;
    const previous = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      const v = queue[i]!;
      for (const w of [...(graph.get(v) ?? [])].sort()) {
        if (!members.has(w)) continue;
        if (w === start) {
          const cycle = [v];
          while (cycle[0] !== start) cycle.unshift(previous.get(cycle[0]!)!);
          return [...cycle, start];
        }
        if (!previous.has(w)) {
          previous.set(w, v);
          queue.push(w);
        }
      }
    }
    throw new Error(`no way back to ${start} within ${part.join(", ")}`);
  });
}

describe("the folders of src/", () => {
  it("import one another without a cycle of any length", () => {
    const cycles = cyclesOf(importGraph()).map((cycle) => cycle.join(" → "));
    expect(cycles, `import cycles between folders:\n${cycles.join("\n")}`).toEqual([]);
  });

  it("point from the words to the time engine, never back: the engine knows no language", () => {
    const graph = importGraph();
    expect(graph.get("words")?.has("time")).toBe(true);
    expect([...graph.entries()].filter(([from, to]) => from.startsWith("time") && [...to].some((t) => t.startsWith("words"))).map(([from]) => from)).toEqual(
      [],
    );
  });

  it("point from the chat object to the Telegram edge, never back", () => {
    const graph = importGraph();
    expect(graph.get("chat")?.has("telegram")).toBe(true);
    expect([...graph.entries()].filter(([from, to]) => from.startsWith("telegram") && [...to].some((t) => t.startsWith("chat"))).map(([from]) => from)).toEqual(
      [],
    );
  });
});

describe("the files of src/", () => {
  it("import one another without a cycle either: a part never reaches back into the part that uses it", () => {
    const cycles = cyclesOf(importGraph("files")).map((cycle) => cycle.join(" → "));
    expect(cycles, `import cycles between files:\n${cycles.join("\n")}`).toEqual([]);
  });
});

describe("the cycle finder", () => {
  it("names a cycle of three, and one of two, and nothing of a chain", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a", "d"])],
      ["d", new Set(["e"])],
      ["e", new Set(["d"])],
      ["f", new Set(["a"])],
    ]);
    expect(cyclesOf(graph)).toEqual([
      ["d", "e", "d"],
      ["a", "b", "c", "a"],
    ]);
    expect(
      cyclesOf(
        new Map([
          ["a", new Set(["b"])],
          ["b", new Set(["c"])],
        ]),
      ),
    ).toEqual([]);
  });
});
