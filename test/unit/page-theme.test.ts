/**
 * Telegram's theme on the page (page/js/theme.js; issue 18): which theme colour each CSS variable takes, only
 * `#rgb`/`#rrggbb` colours reaching the style, and text colours moved towards black or white, hue kept, until
 * they read at 4.5:1 on both backgrounds (Telegram's default light theme has a hint grey and a button under it).
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the page (checked by its own JSDoc), not part of the TypeScript project.
import { contrast, parseColor, readable, themeVariables } from "../../page/js/theme.js";

/** The page's own light palette (page/app.css :root). */
const PAGE: Record<string, string> = {
  "--bg": "#f7f7f8",
  "--surface": "#ffffff",
  "--text": "#1c1d21",
  "--muted": "#5b5f6a",
  "--accent": "#1f5fbf",
  "--accent-text": "#ffffff",
  "--danger": "#b3261e",
  "--ok": "#1d6b3a",
  "--warn": "#8a5300",
};
const base = (name: string) => PAGE[name] ?? "";
type Vars = Record<string, string>;
const rgb = (hex: string) => parseColor(hex) as [number, number, number];

describe("themeVariables", () => {
  it("sets nothing without a theme, and nothing the page's own palette does not need", () => {
    expect(themeVariables({}, base)).toEqual({ vars: {}, scheme: null });
  });

  it("maps a theme that reads well as it is, and names its scheme", () => {
    const theme = {
      bg_color: "#ffffff",
      secondary_bg_color: "#EFEFF4",
      text_color: "#000000",
      hint_color: "#5e5e62",
      link_color: "#0b5cad",
      button_color: "#0b5cad",
      button_text_color: "#ffffff",
      destructive_text_color: "#c40000",
    };
    expect(themeVariables(theme, base)).toEqual({
      vars: {
        "--bg": "#efeff4",
        "--surface": "#ffffff",
        "--text": "#000000",
        "--muted": "#5e5e62",
        "--border": "#5e5e62",
        "--accent": "#0b5cad",
        "--accent-text": "#ffffff",
        "--link": "#0b5cad",
        "--danger": "#c40000",
      },
      scheme: "light",
    });
  });

  it("darkens Telegram's default light hint and button just enough to read, keeping their hue", () => {
    const { vars } = themeVariables(
      { bg_color: "#ffffff", text_color: "#000000", hint_color: "#999999", link_color: "#2481cc", button_color: "#2481cc", button_text_color: "#ffffff" },
      base,
    );
    for (const [fg, back] of [
      ["--muted", "--bg"],
      ["--link", "--bg"],
      ["--accent", "--accent-text"],
    ]) {
      expect(contrast(rgb(vars[fg]!), rgb(vars[back]!)), fg).toBeGreaterThanOrEqual(4.5);
    }
    expect(vars["--muted"]).toBe("#737373");
    expect(vars["--border"]).toBe("#999999");
    const [r, g, b] = rgb(vars["--accent"]!);
    expect(b > g && g > r).toBe(true);
    expect(contrast(rgb("#2481cc"), rgb("#ffffff"))).toBeLessThan(4.5);
  });

  it("lifts the page's own ok and warn colours, and the accent as text, on a dark theme", () => {
    const { vars, scheme } = themeVariables(
      { bg_color: "#17212b", secondary_bg_color: "#0e1621", text_color: "#f5f5f5", button_color: "#5288c1", button_text_color: "#ffffff" },
      base,
    );
    expect(scheme).toBe("dark");
    for (const name of ["--text", "--muted", "--danger", "--ok", "--warn", "--link"]) {
      for (const back of ["--bg", "--surface"]) expect(contrast(rgb(vars[name]!), rgb(vars[back]!)), `${name} on ${back}`).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(rgb(vars["--accent"]!), rgb("#ffffff"))).toBeGreaterThanOrEqual(4.5);
  });

  it("takes only #rgb and #rrggbb colours, so a theme cannot put other CSS in the page", () => {
    const hostile = {
      bg_color: "red; background: url(https://evil.example)",
      text_color: "white",
      hint_color: 12,
      link_color: "rgb(1,2,3)",
      button_color: "#12345",
    };
    expect(themeVariables(hostile, base)).toEqual({ vars: {}, scheme: null });
    const { vars } = themeVariables({ ...hostile, text_color: "#0A0" }, base) as { vars: Vars };
    expect(vars).toEqual({ "--text": "#008000" });
  });
});

describe("readable", () => {
  it("keeps a colour that reads, and moves one that does not towards the better of black and white", () => {
    expect(readable(rgb("#000000"), [rgb("#ffffff")])).toEqual([0, 0, 0]);
    // 5 % steps: #555555 on black reads at 4.5:1 after four steps towards white, #999999 on white after five towards black.
    expect(readable(rgb("#555555"), [rgb("#000000")])).toEqual([119, 119, 119]);
    expect(readable(rgb("#999999"), [rgb("#ffffff")])).toEqual([115, 115, 115]);
  });
});
