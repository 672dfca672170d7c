/**
 * The replies' tables (src/texts/, docs/telegram.md#language) for the e2e tier: the replies a user of each language
 * reads are asserted from the table of that language, loaded straight from its file (each is dependency-free).
 */
import type { Texts } from "../../src/texts/en.ts";

export type { Texts };

/** The table of `lang` (one of the eight). */
export async function textsOf(lang: string): Promise<Texts> {
  return ((await import(`../../src/texts/${lang}.ts`)) as { texts: Texts }).texts;
}

/** `text` as a pattern, with each `hole` in it standing for any text. */
export function patternOf(text: string, ...holes: string[]): RegExp {
  let source = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const hole of holes) source = source.split(hole.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+");
  return new RegExp(`^${source}$`);
}
