// The application: loads messages and server info, routes paths to pages.
import { initI18n, setLanguage, language, t, onLanguageChange } from "./i18n.js";
import { api } from "./net.js";
import { soundEnabled, setSound } from "./sound.js";
import { h, banner, icon } from "./dom.js";
import { homePage } from "./pages/home.js";
import { lobbyPage } from "./pages/lobby.js";
import { joinPage } from "./pages/join.js";
import { importPage } from "./pages/import.js";
import { gamePage } from "./pages/game.js";

/** @type {{variants: any[], computer: {name: string, levels: number} | null}} */
let info = { variants: [], computer: null };
/** @type {{destroy?: () => void, relabel?: () => void} | null} */
let current = null;

function route() {
  current?.destroy?.();
  current = null;
  banner(null);
  const main = /** @type {HTMLElement} */ (document.getElementById("app"));
  main.textContent = "";
  const path = location.pathname;
  let m;
  if ((m = /^\/g\/([a-z0-9]+)$/.exec(path))) current = gamePage(main, info, m[1]);
  else if ((m = /^\/join\/([a-z0-9]+)\/([a-z0-9]+)$/.exec(path))) current = joinPage(main, m[1], m[2]);
  else if (path === "/lobby") current = lobbyPage(main, info);
  else if (path === "/import" || path === "/replay") current = importPage(main, info);
  else current = homePage(main, info);
  document.title = `dama — ${t("app.tagline")}`;
}

function setupHeader() {
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang-select"));
  select.value = language();
  select.addEventListener("change", () => setLanguage(select.value));
  const sound = /** @type {HTMLButtonElement} */ (document.getElementById("sound-toggle"));
  const label = () => {
    sound.replaceChildren(icon(soundEnabled() ? "soundOn" : "soundOff"));
    sound.setAttribute("aria-pressed", String(soundEnabled()));
    sound.setAttribute("aria-label", t(soundEnabled() ? "sound.on" : "sound.off"));
    sound.title = t(soundEnabled() ? "sound.on" : "sound.off");
  };
  sound.addEventListener("click", () => {
    setSound(!soundEnabled());
    label();
  });
  label();
  onLanguageChange(() => {
    select.value = language();
    label();
    // Pages draw their text from messages: draw the page again in the new language.
    if (current?.relabel) current.relabel();
    else route();
  });
  document.addEventListener("click", (e) => {
    const a = /** @type {HTMLElement} */ (e.target).closest?.("a[data-link]");
    if (!(a instanceof HTMLAnchorElement) || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    history.pushState(null, "", a.getAttribute("href"));
    route();
  });
  window.addEventListener("popstate", route);
  window.addEventListener("dama:navigate", route);
}

async function start() {
  await initI18n();
  try {
    info = await api("GET", "/api/info");
  } catch {
    banner(t("error.server_unreachable"), true);
  }
  setupHeader();
  route();
}

start().catch((e) => {
  const main = document.getElementById("app");
  if (main) main.replaceChildren(h("p", { class: "error-text" }, String(e)));
});
