// @ts-check
/**
 * @module The empty state's three suggestion cards (docs/page.md): title, schedule, prompt and Use, which opens
 * the create dialog filled in and creates nothing until it is saved. They are the table's (texts.js), in the
 * page's language: each schedule a phrase, as a person types it to the bot (docs/time.md#descriptions), so what
 * the card shows is what the Schedule field reads.
 */
import { h } from "./dom.js";
import { t } from "./texts.js";

/**
 * The cards, each with a Use button calling `use` with its fields.
 * @param {(s: { name: string, schedule: string, text: string, kind: "prompt" }) => void} use
 */
export function suggestionCards(use) {
  const words = t();
  return words.suggestions.map((s) => {
    const button = h("button", { type: "button", "aria-label": words.named(words.use, s.title) }, [words.use]);
    button.addEventListener("click", () => use({ name: s.title, schedule: s.schedule, text: s.text, kind: "prompt" }));
    return h("li", {}, [h("h3", {}, [s.title]), h("p", {}, [h("code", {}, [s.schedule])]), h("p", { class: "muted" }, [s.text]), button]);
  });
}
