// The lobby: open challenges anyone can accept.
import { t } from "../i18n.js";
import { h, navigate, savedName } from "../dom.js";
import { api, saveToken, tokenFor } from "../net.js";
import { timeLabel, errorText } from "./common.js";

/**
 * @param {HTMLElement} main
 * @param {{variants: any[]}} _info
 */
export function lobbyPage(main, _info) {
  const body = h("tbody");
  const empty = h("p", { class: "muted", id: "lobby-empty" }, t("lobby.empty"));
  const error = h("p", { class: "error-text", role: "alert" });
  main.append(
    h("h1", null, t("lobby.title")),
    h("p", null, t("lobby.help"), " ", h("a", { href: "/", "data-link": true }, t("lobby.post"))),
    h("table", { class: "list" },
      h("thead", null, h("tr", null,
        h("th", null, t("lobby.variant")), h("th", null, t("lobby.clock")),
        h("th", null, t("lobby.player")), h("th", null, t("lobby.plays")), h("th"))),
      body),
    empty, error);
  let stopped = false;
  const refresh = async () => {
    try {
      const list = await api("GET", "/api/lobby");
      if (stopped) return;
      body.replaceChildren(...list.map((/** @type {any} */ c) => h("tr", null,
        h("td", null, t(`variant.${c.variant}.name`)),
        h("td", null, timeLabel(c.time_control)),
        h("td", null, c.name || t("lobby.anonymous")),
        h("td", null, c.color ? t(`color.${c.color}`) : ""),
        h("td", null, tokenFor(c.id)
          ? h("a", { href: `/g/${c.id}`, "data-link": true }, t("lobby.yours"))
          : h("button", {
          class: "primary",
          onclick: async () => {
            try {
              const r = await api("POST", `/api/games/${c.id}/join`, { name: savedName() || undefined });
              saveToken(c.id, r.token);
              navigate(`/g/${c.id}`);
            } catch (e) {
              error.textContent = errorText(e);
              refresh();
            }
          },
        }, t("lobby.accept"))))));
      empty.hidden = list.length > 0;
    } catch (e) {
      error.textContent = errorText(e);
    }
  };
  refresh();
  const timer = setInterval(refresh, 3000);
  return { destroy: () => { stopped = true; clearInterval(timer); } };
}
