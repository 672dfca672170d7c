// @ts-check
/**
 * @module The page's one way to ask before something that cannot be undone (docs/page.md): the confirm dialog of
 * index.html with a title, a sentence, and its two buttons named for what they do (Delete and Keep it unless
 * told). Resolves true only when the confirming button closed it; Escape, the other button, or another chat
 * chosen meanwhile (which closes every dialog) resolve false. The buttons get index.html's words back after.
 */
import { byId } from "./dom.js";
import { t } from "./texts.js";

/** @typedef {keyof import("./texts.js").Texts} Key */

const dialog = /** @type {HTMLDialogElement} */ (byId("confirm-dialog"));
const yes = byId("confirm-yes");
const no = byId("confirm-no");

/** Names a button by the table's `key`, kept in `data-t` so that a switch of language writes it again. @param {HTMLElement} button @param {Key} key */
function name(button, key) {
  button.dataset.t = key;
  button.textContent = /** @type {string} */ (t()[key]);
}

/**
 * Asks `text` under `title`; `confirm` and `keep` name the two buttons.
 * @param {{ title: string, text: string, confirm?: Key, keep?: Key }} ask
 * @returns {Promise<boolean>}
 */
export function askFirst({ title, text, confirm = "delete", keep = "keepIt" }) {
  byId("confirm-title").textContent = title;
  byId("confirm-text").textContent = text;
  name(yes, confirm);
  name(no, keep);
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener(
      "close",
      () => {
        name(yes, "delete");
        name(no, "keepIt");
        resolve(dialog.returnValue === "confirm");
      },
      { once: true },
    );
    dialog.showModal();
  });
}
