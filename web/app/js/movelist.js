// The move list in the variant's notation, numbered in pairs from the variant's first player,
// with buttons to step through the game.
import { t } from "./i18n.js";
import { h, icon } from "./dom.js";

/**
 * Numbered rows: [{number, plies: [index or null, index or null]}].
 * @param {Array<{color: string}>} plies
 * @param {string} first  colour that moves first in the variant
 */
export function numberMoves(plies, first) {
  /** @type {Array<{number: number, cells: Array<number | null>}>} */
  const rows = [];
  let offset = plies.length && plies[0].color !== first ? 1 : 0;
  for (let i = 0; i < plies.length; i++) {
    const k = i + offset;
    const row = Math.floor(k / 2);
    if (!rows[row]) rows[row] = { number: row + 1, cells: [null, null] };
    rows[row].cells[k % 2] = i;
  }
  return rows;
}

/**
 * @param {Array<{color: string, notation: string}>} plies
 * @param {string} first
 * @param {number} shown   index of the ply shown (-1: start)
 * @param {(index: number) => void} onPick
 */
export function moveList(plies, first, shown, onPick) {
  const list = h("ol", { id: "move-list" });
  for (const row of numberMoves(plies, first)) {
    const li = h("li", { value: String(row.number) });
    for (const i of row.cells) {
      if (i === null) {
        li.append(h("span", { class: "muted" }, " … "));
        continue;
      }
      li.append(h("button", {
        type: "button",
        class: i === shown ? "current" : "",
        "aria-current": i === shown ? "step" : null,
        onclick: () => onPick(i),
      }, plies[i].notation), " ");
    }
    list.append(li);
  }
  const box = h("div", { class: "moves", "aria-label": t("game.moves") },
    plies.length ? list : h("p", { class: "muted" }, t("game.no_moves_yet")));
  queueMicrotask(() => {
    const cur = box.querySelector(".current");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    else box.scrollTop = box.scrollHeight;
  });
  return box;
}

/**
 * |< < > >| buttons.
 * @param {number} shown
 * @param {number} last
 * @param {(index: number) => void} go
 */
export function navButtons(shown, last, go) {
  return h("div", { class: "nav-buttons" },
    h("button", { type: "button", id: "nav-first", "aria-label": t("nav.first"), title: t("nav.first"), disabled: shown <= -1, onclick: () => go(-1) }, icon("first")),
    h("button", { type: "button", id: "nav-prev", "aria-label": t("nav.prev"), title: t("nav.prev"), disabled: shown <= -1, onclick: () => go(shown - 1) }, icon("prev")),
    h("button", { type: "button", id: "nav-next", "aria-label": t("nav.next"), title: t("nav.next"), disabled: shown >= last, onclick: () => go(shown + 1) }, icon("next")),
    h("button", { type: "button", id: "nav-last", "aria-label": t("nav.last"), title: t("nav.last"), disabled: shown >= last, onclick: () => go(last) }, icon("last")));
}

/**
 * Squares of pieces jumped along a path (any direction, any distance), given the pieces.
 * @param {string[]} path
 * @param {Map<string, {x: number, y: number}>} coords
 * @param {Map<string, string>} byXY
 * @param {Map<string, {color: string}>} pieces
 * @param {string} mover colour of the moving piece
 */
export function jumped(path, coords, byXY, pieces, mover) {
  const out = new Set();
  for (let i = 0; i + 1 < path.length; i++) {
    const a = coords.get(path[i]);
    const b = coords.get(path[i + 1]);
    if (!a || !b) continue;
    const dx = Math.sign(b.x - a.x);
    const dy = Math.sign(b.y - a.y);
    let x = a.x + dx;
    let y = a.y + dy;
    while (x !== b.x || y !== b.y) {
      const name = byXY.get(`${x},${y}`);
      const p = name ? pieces.get(name) : undefined;
      if (name && p && p.color !== mover) out.add(name);
      x += dx;
      y += dy;
    }
  }
  return out;
}
