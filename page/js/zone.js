// @ts-check
/** @module Changing the chat's time zone (`PUT …/settings`): the dialog, the zone names the browser knows, and the API's answer. */
import { api, ApiError, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { state } from "./state.js";

const dialog = /** @type {HTMLDialogElement} */ (byId("zone-dialog"));
const form = /** @type {HTMLFormElement} */ (byId("zone-form"));
const input = /** @type {HTMLInputElement} */ (byId("zone-input"));
const error = byId("zone-error");
const result = byId("zone-result");
let listed = false;
/** @type {() => void} */
let changed = () => {};

byId("zone-cancel").addEventListener("click", () => dialog.close());
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!state.chatId) return;
  error.textContent = "";
  input.removeAttribute("aria-invalid");
  const value = input.value.trim();
  try {
    const answer = await api("PUT", `${chatPath(state.chatId)}/settings`, { timeZone: value === "" ? null : value });
    state.zone = answer.timeZone;
    state.zoneIsDefault = answer.isDefault;
    result.textContent = answer.message;
    changed();
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) input.setAttribute("aria-invalid", "true");
    error.textContent = sentence(e);
  }
});

/** Opens the dialog for the current chat; `onChange` runs after a zone was set. @param {() => void} onChange */
export function openZone(onChange) {
  changed = onChange;
  if (!listed && typeof Intl.supportedValuesOf === "function") {
    byId("zone-list").replaceChildren(...Intl.supportedValuesOf("timeZone").map((z) => h("option", { value: z })));
    listed = true;
  }
  input.value = state.zoneIsDefault ? "" : state.zone;
  error.textContent = "";
  result.textContent = "";
  dialog.showModal();
  input.focus();
}
