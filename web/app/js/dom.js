// Small helpers for building the page.

/**
 * Creates an element: h("button", {class: "primary", onclick: f}, "text", child).
 * Attributes starting with "on" are listeners; `dataset` sets data-*; null/false skip.
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "class") el.className = v;
    else if (k in el && typeof v !== "string") /** @type {any} */ (el)[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** @param {string} path */
export function navigate(path) {
  history.pushState(null, "", path);
  window.dispatchEvent(new Event("dama:navigate"));
}

/**
 * Shows or hides the banner at the top.
 * @param {string | null} text
 * @param {boolean} [error]
 */
export function banner(text, error = false) {
  const el = document.getElementById("banner");
  if (!el) return;
  el.hidden = !text;
  el.textContent = text || "";
  el.classList.toggle("error", error);
}

/** @param {number} ms */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return `${h ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

const NAME_KEY = "dama.name";
export function savedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch { return ""; }
}
/** @param {string} name */
export function saveName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* private mode */ }
}

const ICONS = {
  first: "M6 5h2v14H6zM20 5v14L9.5 12z",
  prev: "M17 5v14L6.5 12z",
  next: "M7 5v14l10.5-7z",
  last: "M16 5h2v14h-2zM4 5v14l10.5-7z",
  soundOn: "M4 9v6h4l5 4V5L8 9zm12.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z",
  soundOff: "M4 9v6h4l5 4V5L8 9zm12.6 3 2.7-2.7-1.4-1.4-2.7 2.7-2.7-2.7-1.4 1.4 2.7 2.7-2.7 2.7 1.4 1.4 2.7-2.7 2.7 2.7 1.4-1.4z",
};

/**
 * A small icon (SVG, drawn in the current text colour).
 * @param {keyof typeof ICONS} name
 */
export function icon(name) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "20");
  svg.setAttribute("height", "20");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", ICONS[name]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}
