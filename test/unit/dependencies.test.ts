/**
 * `npm install` resolves one wrangler and one miniflare (issue 38, item 3): @cloudflare/vitest-plugin pins its
 * own (wrangler 4.156.2, a beta miniflare), and package.json's `overrides` give it the project's wrangler and
 * the miniflare that wrangler depends on. After a wrangler upgrade, set the override's miniflare to the new
 * wrangler's (`npm view wrangler@<version> dependencies.miniflare`) and run `npm install`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

type Lock = { packages: Record<string, { version?: string; dependencies?: Record<string, string> }> };

describe("package-lock.json", () => {
  const lock: Lock = read("package-lock.json");
  const copies = (name: string) => Object.keys(lock.packages).filter((key) => key === `node_modules/${name}` || key.endsWith(`/node_modules/${name}`));

  it("holds one wrangler, one miniflare and one workerd, each at the top", () => {
    expect(copies("wrangler")).toEqual(["node_modules/wrangler"]);
    expect(copies("miniflare")).toEqual(["node_modules/miniflare"]);
    expect(copies("workerd")).toEqual(["node_modules/workerd"]);
  });

  it("gives the vitest plugin the miniflare wrangler depends on", () => {
    const wrangler = lock.packages["node_modules/wrangler"];
    expect(lock.packages["node_modules/miniflare"]?.version).toBe(wrangler?.dependencies?.miniflare);
    expect(read("package.json").overrides["@cloudflare/vitest-plugin"]).toEqual({ wrangler: "$wrangler", miniflare: wrangler?.dependencies?.miniflare });
  });
});
