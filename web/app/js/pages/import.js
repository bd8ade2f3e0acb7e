// Paste or upload a PDN or FEN: replay it move by move, then play on from any position.
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { api } from "../net.js";
import { BoardView } from "../board.js";
import { parseFen } from "../fen.js";
import { moveList, navButtons } from "../movelist.js";
import { variantSelect, createAndOpen, errorText } from "./common.js";

/**
 * @param {HTMLElement} main
 * @param {{variants: any[], computer: any}} info
 */
export function importPage(main, info) {
  let variantKey = "russian";
  const text = /** @type {HTMLTextAreaElement} */ (h("textarea", {
    id: "import-text", spellcheck: "false", placeholder: t("import.placeholder"), "aria-label": t("import.text"),
  }));
  const file = /** @type {HTMLInputElement} */ (h("input", {
    type: "file", accept: ".pdn,.txt,text/plain", id: "import-file",
    onchange: () => {
      const f = file.files?.[0];
      if (!f) return;
      if (f.size > 256 * 1024) { error.textContent = t("error.too_large"); return; }
      f.text().then((s) => { text.value = s; });
    },
  }));
  const error = h("p", { class: "error-text", role: "alert", id: "import-error" });
  const viewer = h("div");
  main.append(
    h("h1", null, t("import.title")),
    h("section", { class: "card stack" },
      h("p", { class: "muted" }, t("import.help")),
      text,
      h("div", { class: "row" },
        h("label", { class: "field" }, t("import.file"), file),
        h("label", { class: "field" }, t("import.variant"), variantSelect(info.variants, variantKey, (k) => { variantKey = k; }))),
      h("button", { class: "primary", id: "import-open", onclick: open }, t("import.open")),
      error),
    viewer);

  async function open() {
    error.textContent = "";
    try {
      const game = await api("POST", "/api/import", { text: text.value, variant: variantKey });
      show(game);
    } catch (e) {
      error.textContent = /** @type {any} */ (e).code === "bad_import"
        ? `${t("import.bad")} ${/** @type {any} */ (e).message}`
        : errorText(e);
    }
  }

  /** @param {any} game */
  function show(game) {
    viewer.textContent = "";
    const layout = h("div", { class: "game" });
    const boardBox = h("div", { class: "board-wrap" });
    const side = h("div", { class: "side" });
    layout.append(boardBox, side);
    viewer.append(layout);
    const board = new BoardView(boardBox, game.variant, { onSquare: () => {}, onDragStart: () => false });
    let shown = game.plies.length - 1;
    let flip = false;
    const fen = () => (shown < 0 ? game.start_fen : game.plies[shown].fen);
    const render = () => {
      const pos = parseFen(fen());
      board.setFlipped(flip);
      board.render({ pieces: pos.pieces, last: shown >= 0 ? game.plies[shown].path : [] });
      const go = (/** @type {number} */ i) => { shown = Math.max(-1, Math.min(game.plies.length - 1, i)); render(); };
      const tags = (game.tags || []).filter((/** @type {string[]} */ [k]) => ["White", "Black", "Event", "Date", "Result"].includes(k));
      side.replaceChildren(...[
        h("div", { class: "status", id: "replay-status" },
          `${t(`variant.${game.variant.key}.name`)} — ${t("import.position_after", { n: shown + 1, total: game.plies.length })}`),
        tags.length ? h("div", { class: "muted" }, tags.map((/** @type {string[]} */ [k, v]) => `${k}: ${v}`).join(" · ")) : null,
        navButtons(shown, game.plies.length - 1, go),
        moveList(game.plies, game.variant.first, shown, go),
        h("div", { class: "actions" },
          h("button", { id: "replay-flip", onclick: () => { flip = !flip; render(); } }, t("action.flip"))),
        h("h2", null, t("import.play_on")),
        h("p", { class: "muted" }, t("import.play_on_help")),
        h("div", { class: "actions" },
          info.computer
            ? h("button", {
              class: "primary", id: "play-on-computer",
              onclick: () => createAndOpen({
                variant: game.variant.key, mode: "computer", level: 1, fen: fen(),
                color: parseFen(fen()).turn,
              }, (e) => { error.textContent = errorText(e); }),
            }, t("mode.computer"))
            : null,
          h("button", {
            id: "play-on-friend",
            onclick: () => createAndOpen({ variant: game.variant.key, mode: "friend", fen: fen(), color: "random" },
              (e) => { error.textContent = errorText(e); }),
          }, t("mode.friend")),
          h("button", {
            id: "play-on-local",
            onclick: () => createAndOpen({ variant: game.variant.key, mode: "local", fen: fen() },
              (e) => { error.textContent = errorText(e); }),
          }, t("mode.local"))),
      ].filter((x) => x !== null));
    };
    render();
  }
  return {};
}
