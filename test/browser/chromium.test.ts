/**
 * Finding the browser (issue 15): Chromium comes from PATH, and a machine without it fails the browser tests
 * with one sentence saying how to install it.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findChromium, NO_CHROMIUM } from "./browser.js";

describe("findChromium", () => {
  it("fails with how to install Chromium when PATH has none", () => {
    const empty = mkdtempSync(path.join(tmpdir(), "cuckoo-no-chromium-"));
    try {
      expect(() => findChromium(empty)).toThrow(NO_CHROMIUM);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("takes the chromium on PATH", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cuckoo-chromium-"));
    try {
      writeFileSync(path.join(dir, "chromium"), "#!/bin/sh\n");
      chmodSync(path.join(dir, "chromium"), 0o755);
      expect(findChromium(dir)).toBe(path.join(dir, "chromium"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
