// @ts-check
/**
 * @module Changing the chat's time zone (docs/telegram.md, docs/page.md): the dialog takes a place as `/timezone` does (`Berlin`,
 * `Japan`, an IANA or Windows name): `GET /admin/zones?place=` says which zone it names, or offers the likely ones
 * of a place with several as buttons, and `PUT …/settings` sets the one chosen. In the Mini App, the device's own
 * zone is offered when it differs from the chat's: one tap sets it.
 */
import { ApiError, api, chatPath } from "./api.js";
import { byId, h, sentence } from "./dom.js";
import { state } from "./state.js";
import { t } from "./texts.js";

const dialog = /** @type {HTMLDialogElement} */ (byId("zone-dialog"));
const form = /** @type {HTMLFormElement} */ (byId("zone-form"));
const input = /** @type {HTMLInputElement} */ (byId("zone-input"));
const error = byId("zone-error");
const result = byId("zone-result");
const choices = byId("zone-choices");
let listed = false;
/** @type {() => void} */
let changed = () => {};

/** The chat the dialog (or the device's offer) is for: a zone set goes there. @type {string | null} */
let zoneChat = null;

/** Sets the chat's zone (null: the default) and says what the API answered. @param {string | null} zone */
async function setZone(zone) {
  if (!zoneChat) return;
  const answer = await api("PUT", `${chatPath(zoneChat)}/settings`, { timeZone: zone });
  state.zone = answer.timeZone;
  state.zoneIsDefault = answer.isDefault;
  result.textContent = answer.message;
  choices.hidden = true;
  changed();
}

/** The likely zones of a place with several, as buttons that set one. @param {string} place @param {{ zone: string, label: string }[]} zones */
function offer(place, zones, offset = false) {
  byId("zone-choices-title").textContent = offset ? t().zoneOffset(place) : t().zoneSeveral(place);
  byId("zone-choice-buttons").replaceChildren(
    ...zones.map(({ zone, label }) => {
      const b = h("button", { type: "button", "data-zone": zone }, [label]);
      b.addEventListener("click", () => void setZone(zone).catch((e) => (error.textContent = sentence(e))));
      return b;
    }),
  );
  choices.hidden = false;
}

byId("zone-cancel").addEventListener("click", () => dialog.close());
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!zoneChat) return;
  error.textContent = "";
  result.textContent = "";
  choices.hidden = true;
  input.removeAttribute("aria-invalid");
  const value = input.value.trim();
  try {
    if (value === "") return await setZone(null);
    const found = await api("GET", `/admin/zones?${new URLSearchParams({ place: value })}`);
    if (found.zones.length === 1) await setZone(found.zones[0].zone);
    else offer(found.place, found.zones, found.offset);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) input.setAttribute("aria-invalid", "true");
    error.textContent = sentence(e);
  }
});

/** Opens the dialog for the current chat; `onChange` runs after a zone was set. @param {() => void} onChange */
export function openZone(onChange) {
  changed = onChange;
  zoneChat = state.chatId;
  if (!listed && typeof Intl.supportedValuesOf === "function") {
    byId("zone-list").replaceChildren(...Intl.supportedValuesOf("timeZone").map((z) => h("option", { value: z })));
    listed = true;
  }
  input.value = state.zoneIsDefault ? "" : state.zone;
  error.textContent = "";
  result.textContent = "";
  choices.hidden = true;
  dialog.showModal();
  input.focus();
}

/** The zone this device's clock is in, as the browser knows it (null when it does not say). */
export function deviceZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/**
 * The Mini App's offer of the device's zone (docs/telegram.md): shown while it differs from the chat's; one tap sets it.
 * `onChange` runs after it was set.
 * @param {() => void} onChange
 */
export function offerDeviceZone(onChange) {
  const box = byId("device-zone");
  const device = deviceZone();
  box.hidden = device === null || device === state.zone;
  if (box.hidden || device === null) return;
  byId("device-zone-text").textContent = t().deviceZone(device, state.zone);
  const use = /** @type {HTMLButtonElement} */ (byId("device-zone-use"));
  use.textContent = t().useZone(device);
  const chatId = state.chatId;
  use.onclick = async () => {
    use.disabled = true;
    try {
      changed = onChange;
      zoneChat = chatId;
      await setZone(device);
      box.hidden = true;
    } catch (e) {
      byId("device-zone-text").textContent = sentence(e);
    } finally {
      use.disabled = false;
    }
  };
}
