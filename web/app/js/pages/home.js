// The start page: choose a variant, then how to play.
import { t } from "../i18n.js";
import { h, savedName, saveName } from "../dom.js";
import {
  TIME_CONTROLS, timeLabel, variantSelect, choice, colourOptions, rulesBox, createAndOpen, errorText,
} from "./common.js";

const VARIANT_KEY = "dama.variant";

/**
 * @param {HTMLElement} main
 * @param {{variants: any[], computer: {levels: number} | null}} info
 */
export function homePage(main, info) {
  let variantKey = "russian";
  try { variantKey = localStorage.getItem(VARIANT_KEY) || "russian"; } catch { /* private mode */ }
  if (!info.variants.some((v) => v.key === variantKey)) variantKey = info.variants[0]?.key || "russian";
  let level = 1;
  let computerColour = "white";
  let computerTime = /** @type {any} */ (null);
  let friendColour = "random";
  let friendTime = /** @type {any} */ (null);
  let lobbyColour = "random";
  let lobbyTime = /** @type {any} */ (TIME_CONTROLS[2]);
  const error = h("p", { class: "error-text", role: "alert" });

  const fail = (/** @type {any} */ e) => { error.textContent = errorText(e); };
  const name = () => nameInput.value.trim();
  const nameInput = /** @type {HTMLInputElement} */ (h("input", {
    id: "player-name", maxlength: "24", value: savedName(), autocomplete: "nickname",
    onchange: () => saveName(nameInput.value.trim()),
  }));
  const base = () => ({ variant: variantKey, name: name() || undefined });

  let rules = h("div");
  const variant = () => info.variants.find((v) => v.key === variantKey);
  const showRules = () => {
    const box = rulesBox(variant());
    rules.replaceWith(box);
    rules = box;
  };

  const levels = info.computer?.levels || 0;
  const levelSelect = /** @type {HTMLSelectElement} */ (h("select", {
    id: "level-select", onchange: () => { level = Number(levelSelect.value); },
  }, Array.from({ length: levels }, (_, i) => h("option", { value: String(i + 1) }, t("computer.level", { level: i + 1 })))));
  const timeSelect = (/** @type {(tc: any) => void} */ set, /** @type {any} */ initial, /** @type {string} */ id) => {
    const s = /** @type {HTMLSelectElement} */ (h("select", { id, onchange: () => set(TIME_CONTROLS[Number(s.value)]) },
      TIME_CONTROLS.map((tc, i) => h("option", { value: String(i), selected: tc === initial }, timeLabel(tc)))));
    return s;
  };

  main.append(
    h("h1", null, t("home.title")),
    h("section", { class: "card stack" },
      h("label", { class: "field" }, t("home.variant"),
        variantSelect(info.variants, variantKey, (k) => {
          variantKey = k;
          try { localStorage.setItem(VARIANT_KEY, k); } catch { /* private mode */ }
          showRules();
        })),
      rules,
      h("label", { class: "field" }, t("home.your_name"), nameInput)),
    h("div", { class: "modes" },
      h("section", { class: "card mode", id: "mode-computer" },
        h("h2", null, t("mode.computer")),
        h("p", { class: "muted" }, t("mode.computer_help")),
        levels
          ? [
            h("label", { class: "field" }, t("computer.strength"), levelSelect),
            h("div", null, h("div", { class: "muted" }, t("home.your_colour")),
              choice(colourOptions(), computerColour, (c) => { computerColour = c; }, t("home.your_colour"))),
            h("label", { class: "field" }, t("home.clock"), timeSelect((tc) => { computerTime = tc; }, null, "computer-time")),
            h("button", {
              class: "primary", id: "start-computer",
              onclick: () => createAndOpen({
                ...base(), mode: "computer", level, color: computerColour, time_control: computerTime || undefined,
              }, fail),
            }, t("mode.computer_start")),
          ]
          : h("p", { class: "error-text" }, t("computer.unavailable"))),
      h("section", { class: "card mode", id: "mode-friend" },
        h("h2", null, t("mode.friend")),
        h("p", { class: "muted" }, t("mode.friend_help")),
        h("div", null, h("div", { class: "muted" }, t("home.your_colour")),
          choice(colourOptions(), friendColour, (c) => { friendColour = c; }, t("home.your_colour"))),
        h("label", { class: "field" }, t("home.clock"), timeSelect((tc) => { friendTime = tc; }, null, "friend-time")),
        h("button", {
          class: "primary", id: "start-friend",
          onclick: () => createAndOpen({ ...base(), mode: "friend", color: friendColour, time_control: friendTime || undefined }, fail),
        }, t("mode.friend_start"))),
      h("section", { class: "card mode", id: "mode-local" },
        h("h2", null, t("mode.local")),
        h("p", { class: "muted" }, t("mode.local_help")),
        h("button", {
          class: "primary", id: "start-local",
          onclick: () => createAndOpen({ variant: variantKey, mode: "local" }, fail),
        }, t("mode.local_start"))),
      h("section", { class: "card mode", id: "mode-lobby" },
        h("h2", null, t("mode.lobby")),
        h("p", { class: "muted" }, t("mode.lobby_help")),
        h("div", null, h("div", { class: "muted" }, t("home.your_colour")),
          choice(colourOptions(), lobbyColour, (c) => { lobbyColour = c; }, t("home.your_colour"))),
        h("label", { class: "field" }, t("home.clock"), timeSelect((tc) => { lobbyTime = tc; }, lobbyTime, "lobby-time")),
        h("button", {
          class: "primary", id: "start-lobby",
          onclick: () => createAndOpen({ ...base(), mode: "lobby", color: lobbyColour, time_control: lobbyTime || undefined }, fail),
        }, t("mode.lobby_start")))),
    error,
    h("p", null, h("a", { href: "/import", "data-link": true }, t("home.replay_link"))),
  );
  showRules();
  return {};
}
