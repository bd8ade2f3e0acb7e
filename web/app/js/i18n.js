// Messages from the files in /app/i18n: one JSON object per language, flat keys.
// t(key, params) fills {name} placeholders; a missing key shows the English text, then the key.

export const LANGUAGES = ["en", "hi", "mr", "ru"];
const STORAGE_KEY = "dama.lang";

/** @type {Record<string, Record<string, string>>} */
const catalogs = {};
let current = "en";
/** @type {Array<() => void>} */
const listeners = [];

/**
 * Picks the language: the saved choice, else the browser's first supported language.
 * @param {readonly string[]} preferred
 * @param {string | null} saved
 * @returns {string}
 */
export function chooseLanguage(preferred, saved) {
  if (saved && LANGUAGES.includes(saved)) return saved;
  for (const tag of preferred) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

/** @param {string} lang */
async function load(lang) {
  if (catalogs[lang]) return;
  const res = await fetch(`/app/i18n/${lang}.json`);
  if (!res.ok) throw new Error(`cannot load messages for ${lang}`);
  catalogs[lang] = await res.json();
}

/** Loads English and the chosen language. */
export async function initI18n() {
  let saved = null;
  try { saved = localStorage.getItem(STORAGE_KEY); } catch { /* private mode */ }
  const lang = chooseLanguage(navigator.languages || [navigator.language || "en"], saved);
  await load("en");
  await setLanguage(lang, false);
}

/**
 * @param {string} lang
 * @param {boolean} [remember]
 */
export async function setLanguage(lang, remember = true) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  await load(lang);
  current = lang;
  document.documentElement.lang = lang;
  if (remember) {
    try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* private mode */ }
  }
  translateStatic(document);
  for (const f of listeners) f();
}

export function language() {
  return current;
}

/** @param {() => void} f */
export function onLanguageChange(f) {
  listeners.push(f);
}

/**
 * Fills {placeholders} of a message.
 * @param {string} text
 * @param {Record<string, string | number>} [params]
 */
export function format(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/**
 * @param {string} key
 * @param {Record<string, string | number>} [params]
 * @returns {string}
 */
export function t(key, params) {
  const text = catalogs[current]?.[key] ?? catalogs.en?.[key] ?? key;
  return format(text, params);
}

/**
 * Sets the text of every element with data-i18n (and data-i18n-title, -placeholder, -label).
 * @param {ParentNode} root
 */
export function translateStatic(root) {
  /** @param {string} selector */
  const all = (selector) => /** @type {NodeListOf<HTMLInputElement>} */ (root.querySelectorAll(selector));
  for (const el of all("[data-i18n]")) el.textContent = t(el.dataset.i18n || "");
  for (const el of all("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle || "");
  for (const el of all("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder || "");
  for (const el of all("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel || ""));
}
