/**
 * @module The third-party modules built by scripts/vendor.mjs into this folder, each imported on first use. Wrangler
 * uploads them as modules of their own (wrangler.toml `find_additional_modules`) and leaves each literal
 * specifier below as an import, resolved at run time from the bundle's root, which `base_dir` makes this folder:
 * that is why every import of them is written here and nowhere else. Nothing of them is in the Worker's main
 * module or parsed at start-up.
 */
import type { Chrono } from "chrono-node";
import type PostalMime from "postal-mime";

/** chrono-node's casual reader, by locale (src/words/chrono.ts says which locales a text is tried in). */
export const chronoLocales = {
  en: async (): Promise<Chrono> => (await import("./chrono/en.mjs")).casual,
  de: async (): Promise<Chrono> => (await import("./chrono/de.mjs")).casual,
  fr: async (): Promise<Chrono> => (await import("./chrono/fr.mjs")).casual,
  es: async (): Promise<Chrono> => (await import("./chrono/es.mjs")).casual,
  pt: async (): Promise<Chrono> => (await import("./chrono/pt.mjs")).casual,
  it: async (): Promise<Chrono> => (await import("./chrono/it.mjs")).casual,
  nl: async (): Promise<Chrono> => (await import("./chrono/nl.mjs")).casual,
  ru: async (): Promise<Chrono> => (await import("./chrono/ru.mjs")).casual,
  uk: async (): Promise<Chrono> => (await import("./chrono/uk.mjs")).casual,
  ja: async (): Promise<Chrono> => (await import("./chrono/ja.mjs")).casual,
};

/** postal-mime's parser (src/hooks/mail.ts). */
export async function postalMime(): Promise<typeof PostalMime> {
  return (await import("./postal-mime/postal-mime.mjs")).default;
}
