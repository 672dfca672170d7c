/**
 * The table of vars (src/vars.ts) is the one declaration of each var, and what a person reads agrees with it:
 * README's configuration table lists exactly the declared vars, marks the secrets and shows each default;
 * wrangler.toml's [vars] are the declared `vars` with their defaults, and its header names the secrets; every
 * declared default reads without a problem. A var added without its README line (or the reverse) fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { defaults, VARS, type VarName } from "../../src/vars";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const names = Object.keys(VARS) as VarName[];
const declared = (name: VarName): { set: string; default?: string } => VARS[name];
const secrets = names.filter((name) => declared(name).set === "secret");

/** The rows of README's table under "## Configuration": the vars each names (first cell), its secrets and its default. */
function readmeRows(): { vars: string[]; secrets: string[]; bindings: string[]; default: string }[] {
  const section = read("README.md").split("\n## Configuration\n")[1]!.split("\n## ")[0]!;
  const table = section.split("\n| var or secret |")[1]!.split("\n\n")[0]!;
  return table
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line.split(" | ").map((cell) => cell.replace(/^\| |\s*\|$/g, ""));
      const first = cells[0]!;
      const marked = (mark: string) => [...first.matchAll(new RegExp(`\`([A-Z][A-Z0-9_]*)\` \\(${mark}\\)`, "g"))].map((m) => m[1]!);
      const bindings = marked("binding");
      const vars = [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!).filter((name) => !bindings.includes(name));
      return { vars, secrets: marked("secret"), bindings, default: cells.at(-1)! };
    });
}

describe("README's configuration table", () => {
  const rows = readmeRows();

  it("lists exactly the declared vars, each once", () => {
    const listed = rows.flatMap((row) => row.vars);
    expect(listed.toSorted()).toEqual(names.toSorted());
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("marks exactly the declared secrets (secret)", () => {
    expect(rows.flatMap((row) => row.secrets).toSorted()).toEqual(secrets.toSorted());
  });

  it("shows each declared default: the value as written, or empty for an empty list", () => {
    for (const row of rows)
      for (const name of row.vars) {
        const value = declared(name as VarName).default;
        if (value === undefined) continue;
        if (value === "") expect(row.default, name).toMatch(/^empty\b/);
        else expect(row.default, name).toBe(`\`${value}\``);
      }
  });
});

describe("wrangler.toml", () => {
  const toml = read("wrangler.toml");

  it("declares in [vars] exactly the vars set there, each as its default", () => {
    const section = toml.split("\n[vars]\n")[1]!.split("\n[")[0]!;
    const vars = Object.fromEntries([...section.matchAll(/^([A-Z][A-Z0-9_]*) = "(.*)"$/gm)].map((m) => [m[1]!, m[2]!]));
    const expected = Object.fromEntries(names.filter((name) => declared(name).set === "vars").map((name) => [name, declared(name).default]));
    expect(vars).toEqual(expected);
  });

  it("names the declared secrets in its header", () => {
    const header = /Secrets \(([^)]*)\)/.exec(toml.replace(/\n# /g, " "))![1]!;
    expect(
      header
        .split(",")
        .map((name) => name.trim())
        .toSorted(),
    ).toEqual(secrets.toSorted());
  });
});

describe("the declared defaults", () => {
  it("read without a problem, as the value an unset var gives", () => {
    for (const name of names) {
      const value = declared(name).default;
      if (value === undefined) expect(defaults()[name], name).toBeNull();
      else expect(VARS[name].read(value), name).toEqual({ ok: true, value: defaults()[name] });
    }
  });
});
