// @ts-check
/**
 * @module The empty state's three suggestion cards (docs/page.md): title, schedule, prompt and Use, which opens
 * the create dialog filled in and creates nothing until it is saved.
 */
import { h } from "./dom.js";

/**
 * Each schedule a phrase, as a person types it to the bot (docs/time.md#descriptions): what the card shows is what
 * the Schedule field reads.
 * @type {{ title: string, schedule: string, text: string, kind: "prompt" }[]}
 */
export const SUGGESTIONS = [
  {
    title: "Weekday inbox summary",
    schedule: "every weekday at 08:00",
    text: "Summarise what came in overnight and what needs an answer today.",
    kind: "prompt",
  },
  { title: "Remind me in 20 minutes", schedule: "in 20 minutes", text: "Remind me to take the laundry out.", kind: "prompt" },
  { title: "Friday week review", schedule: "every Friday at 17:00", text: "Ask me what went well this week and what to carry into the next.", kind: "prompt" },
];

/**
 * The cards, each with a Use button calling `use` with its fields.
 * @param {(s: { name: string, schedule: string, text: string, kind: "prompt" }) => void} use
 */
export function suggestionCards(use) {
  return SUGGESTIONS.map((s) => {
    const button = h("button", { type: "button", "aria-label": `Use: ${s.title}` }, ["Use"]);
    button.addEventListener("click", () => use({ name: s.title, schedule: s.schedule, text: s.text, kind: s.kind }));
    return h("li", {}, [h("h3", {}, [s.title]), h("p", {}, [h("code", {}, [s.schedule])]), h("p", { class: "muted" }, [s.text]), button]);
  });
}
