// @ts-check
/**
 * @module Telegram's theme on the page (issue 18): the Mini App's `themeParams` mapped onto the page's CSS
 * variables, each colour taken only when it is a `#rrggbb` or `#rgb` colour. Telegram's themes are the user's,
 * and some read faintly (the default hint grey on white is under 3:1): a text colour that would not reach
 * WCAG's 4.5:1 on the page's backgrounds is moved towards black or white until it does, keeping its hue, and so is
 * the button colour against its text. Pure: unit-tested in Node.
 */

/** @typedef {[number, number, number]} Rgb */

/** Each page variable and the theme keys it takes, the first one present winning. */
const MAP = /** @type {const} */ ([
  ["--bg", ["secondary_bg_color", "bg_color"]],
  ["--surface", ["section_bg_color", "bg_color"]],
  ["--text", ["text_color"]],
  ["--muted", ["subtitle_text_color", "hint_color"]],
  ["--border", ["section_separator_color", "hint_color"]],
  ["--accent", ["button_color"]],
  ["--accent-text", ["button_text_color"]],
  ["--link", ["link_color", "accent_text_color"]],
  ["--danger", ["destructive_text_color"]],
]);

/** The variables the page writes text in, which must read on both backgrounds. */
const TEXT = ["--text", "--muted", "--link", "--danger", "--ok", "--warn"];
const MIN_CONTRAST = 4.5;

/** A `#rgb` or `#rrggbb` colour, or null for anything else (nothing else reaches the page's style). @param {unknown} value @returns {Rgb | null} */
export function parseColor(value) {
  if (typeof value !== "string") return null;
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value.trim());
  const digits = m?.[1];
  if (!digits) return null;
  const hex = digits.length === 3 ? [...digits].map((c) => c + c).join("") : digits;
  return /** @type {Rgb} */ ([0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)));
}

/** @param {Rgb} c */
const toHex = (c) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("")}`;

/** WCAG's relative luminance. @param {Rgb} c */
function luminance(c) {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * /** @type {number} */ (r) + 0.7152 * /** @type {number} */ (g) + 0.0722 * /** @type {number} */ (b);
}

/** WCAG's contrast ratio of two colours. @param {Rgb} a @param {Rgb} b */
export function contrast(a, b) {
  const [hi = 0, lo = 0] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `fg` when it reaches `MIN_CONTRAST` against every colour of `backs`; else `fg` mixed towards black or white
 * (whichever reads better on them) in steps of 5 %, the first mix that does.
 * @param {Rgb} fg @param {Rgb[]} backs @returns {Rgb}
 */
export function readable(fg, backs) {
  const worst = (/** @type {Rgb} */ c) => Math.min(...backs.map((b) => contrast(c, b)));
  if (worst(fg) >= MIN_CONTRAST) return fg;
  /** @type {Rgb} */
  const black = [0, 0, 0];
  /** @type {Rgb} */
  const white = [255, 255, 255];
  const target = worst(black) >= worst(white) ? black : white;
  for (let step = 1; step <= 20; step++) {
    const t = step / 20;
    const mixed = /** @type {Rgb} */ (fg.map((v, i) => Math.round(v + ((target[i] ?? v) - v) * t)));
    if (worst(mixed) >= MIN_CONTRAST) return mixed;
  }
  return target;
}

/**
 * The CSS variables to set for Telegram's `themeParams`, given the page's own values (`base(name)`, used for what
 * the theme leaves out), and the colour scheme its background implies (null without one).
 * @param {Record<string, unknown>} params
 * @param {(name: string) => string} base
 * @returns {{ vars: Record<string, string>, scheme: "light" | "dark" | null }}
 */
export function themeVariables(params, base) {
  /** @type {Record<string, string>} */
  const vars = {};
  for (const [name, keys] of MAP) {
    const color = keys.map((key) => parseColor(params[key])).find((c) => c !== null);
    if (color) vars[name] = toHex(color);
  }
  const get = (/** @type {string} */ name) => parseColor(vars[name] ?? base(name));
  const backs = /** @type {Rgb[]} */ ([get("--bg"), get("--surface")].filter((c) => c !== null));
  if (backs.length > 0) {
    for (const name of TEXT) {
      // Without a link colour the page writes links and "running" in the accent colour.
      const fg = name === "--link" && !vars["--link"] ? get("--accent") : get(name);
      if (!fg) continue;
      const fixed = readable(fg, backs);
      if (vars[name] || toHex(fixed) !== toHex(fg)) vars[name] = toHex(fixed);
    }
  }
  const accent = get("--accent");
  const accentText = get("--accent-text");
  if (accent && accentText && contrast(accent, accentText) < MIN_CONTRAST) vars["--accent"] = toHex(readable(accent, [accentText]));
  const bg = get("--bg");
  const scheme = vars["--bg"] && bg ? (luminance(bg) < 0.2 ? "dark" : "light") : null;
  return { vars, scheme };
}
