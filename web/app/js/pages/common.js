// Pieces shared by several pages: variant picker, colour and time choices, creating games.
import { t } from "../i18n.js";
import { h, navigate } from "../dom.js";
import { api, saveToken } from "../net.js";

export const TIME_CONTROLS = [
  null,
  { initial_s: 180, increment_s: 2 },
  { initial_s: 300, increment_s: 3 },
  { initial_s: 600, increment_s: 5 },
  { initial_s: 900, increment_s: 10 },
  { initial_s: 1800, increment_s: 0 },
];

/** @param {{initial_s: number, increment_s: number} | null} tc */
export function timeLabel(tc) {
  if (!tc) return t("time.none");
  return t("time.minutes_increment", { minutes: Math.round(tc.initial_s / 60), increment: tc.increment_s });
}

/**
 * A select of the variants.
 * @param {any[]} variants
 * @param {string} value
 * @param {(key: string) => void} onChange
 */
export function variantSelect(variants, value, onChange) {
  const select = /** @type {HTMLSelectElement} */ (h("select", {
    id: "variant-select",
    onchange: () => onChange(select.value),
  }, variants.map((v) => h("option", { value: v.key, selected: v.key === value }, t(`variant.${v.key}.name`)))));
  return select;
}

/**
 * A row of toggle buttons.
 * @template T
 * @param {Array<{value: T, label: string}>} options
 * @param {T} value
 * @param {(v: T) => void} onChange
 * @param {string} name
 */
export function choice(options, value, onChange, name) {
  const wrap = h("div", { class: "choice", role: "group", "aria-label": name });
  const buttons = options.map((o) => {
    const b = h("button", {
      type: "button",
      "aria-pressed": String(o.value === value),
      onclick: () => {
        for (const other of buttons) other.setAttribute("aria-pressed", "false");
        b.setAttribute("aria-pressed", "true");
        onChange(o.value);
      },
    }, o.label);
    return b;
  });
  wrap.append(...buttons);
  return wrap;
}

export function colourOptions() {
  return [
    { value: "white", label: t("color.white") },
    { value: "black", label: t("color.black") },
    { value: "random", label: t("color.random") },
  ];
}

/**
 * The rules summary of a variant.
 * @param {any} v
 */
export function rulesBox(v) {
  const first = t(`color.${v.first}`);
  return h("div", { class: "rules", id: "rules-summary" },
    h("p", null, t(`variant.${v.key}.rules`)),
    h("p", { class: "muted" }, t("variant.facts", { width: v.width, height: v.height, first })));
}

/**
 * Creates a game and opens it.
 * @param {any} body
 * @param {(e: any) => void} onError
 */
export async function createAndOpen(body, onError) {
  try {
    const r = await api("POST", "/api/games", body);
    saveToken(r.id, r.token);
    if (r.invite) {
      try { localStorage.setItem(`dama.invite.${r.id}`, r.invite); } catch { /* private mode */ }
    }
    navigate(`/g/${r.id}`);
  } catch (e) {
    onError(e);
  }
}

/** @param {any} e */
export function errorText(e) {
  const key = `error.${e?.code}`;
  const text = t(key);
  return text === key ? `${t("error.generic")} ${e?.message || ""}` : text;
}
