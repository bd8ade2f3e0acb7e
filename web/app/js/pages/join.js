// Opening an invite link: take the free seat, then go to the game.
import { t } from "../i18n.js";
import { h, navigate, savedName } from "../dom.js";
import { api, saveToken, tokenFor } from "../net.js";

/**
 * @param {HTMLElement} main
 * @param {string} id
 * @param {string} code
 */
export function joinPage(main, id, code) {
  const status = h("p", { role: "status" }, t("join.joining"));
  main.append(h("h1", null, t("join.title")), status);
  if (tokenFor(id)) {
    // This browser already holds a seat of the game (the creator opened the link).
    navigate(`/g/${id}`);
    return {};
  }
  api("POST", `/api/games/${id}/join`, { invite: code, name: savedName() || undefined })
    .then((r) => {
      saveToken(id, r.token);
      navigate(`/g/${id}`);
    })
    .catch((e) => {
      status.textContent = t(e.code === "seat_taken" ? "join.taken" : "join.invalid");
      status.className = "error-text";
      main.append(h("p", null, h("a", { href: `/g/${id}`, "data-link": true }, t("join.watch"))));
    });
  return {};
}
