/**
 * DESIGN §12: nothing runs at module scope. Importing the time engine must create no `Intl` formatter and
 * load no Temporal; the first use does.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

let polyfillLoads = 0;
vi.mock("@js-temporal/polyfill", async (importActual) => {
  polyfillLoads++;
  return importActual();
});

const Original = Intl.DateTimeFormat;
afterEach(() => {
  Intl.DateTimeFormat = Original;
});

describe("loading the time engine", () => {
  it("creates no Intl formatter until a zone is used", async () => {
    vi.resetModules();
    let created = 0;
    Intl.DateTimeFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        created++;
      }
    } as typeof Original;
    const time = await import("../../src/time");
    expect(created).toBe(0);
    expect(time.formatOffset("Europe/Berlin", Date.UTC(2026, 6, 1))).toBe("UTC+02:00");
    expect(created).toBe(1);
  });

  it("loads the Temporal polyfill on the first delay, not at import", async () => {
    vi.resetModules();
    const time = await import("../../src/time");
    expect(polyfillLoads).toBe(0);
    const at = await time.resolveDelay("PT20M", "UTC", Date.UTC(2026, 8, 26, 12));
    expect(at).toEqual({ ok: true, value: Date.UTC(2026, 8, 26, 12, 20) });
    expect(polyfillLoads).toBe(1);
  });
});
