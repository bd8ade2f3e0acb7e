// The board: squares as buttons in a grid, pieces, highlights, click, drag and keyboard.
import { t } from "./i18n.js";

/**
 * @typedef {{name: string, x: number, y: number}} SquareInfo
 * @typedef {{key: string, width: number, height: number, squares: SquareInfo[]}} VariantInfo
 * @typedef {{color: "white" | "black", king: boolean}} Piece
 * @typedef {{
 *   pieces: Map<string, Piece>,
 *   selected?: string | null,
 *   hops?: Set<string>,
 *   ends?: Set<string>,
 *   path?: string[],
 *   last?: string[],
 *   must?: Set<string>,
 *   taken?: Set<string>,
 * }} BoardState
 */

export class BoardView {
  /**
   * @param {HTMLElement} container
   * @param {VariantInfo} variant
   * @param {{onSquare: (name: string) => void, onDragStart: (name: string) => boolean}} handlers
   */
  constructor(container, variant, handlers) {
    this.variant = variant;
    this.handlers = handlers;
    this.flipped = false;
    this.coords = true;
    /** @type {Map<string, SquareInfo>} */
    this.byName = new Map(variant.squares.map((s) => [s.name, s]));
    /** @type {Map<string, string>} */
    this.byXY = new Map(variant.squares.map((s) => [`${s.x},${s.y}`, s.name]));
    this.el = document.createElement("div");
    this.el.className = "board";
    this.el.setAttribute("role", "grid");
    this.el.style.setProperty("--w", String(variant.width));
    this.el.style.setProperty("--h", String(variant.height));
    container.append(this.el);
    /** @type {Map<string, HTMLButtonElement>} */
    this.cells = new Map();
    this.focused = variant.squares[0]?.name ?? "";
    /** @type {BoardState} */
    this.state = { pieces: new Map() };
    this.drag = null;
    this.build();
    this.el.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.el.addEventListener("keydown", (e) => this.keyDown(e));
  }

  /** @param {boolean} flipped */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.build();
    this.render(this.state);
  }

  /** @param {boolean} on */
  setCoords(on) {
    this.coords = on;
    this.el.classList.toggle("no-coords", !on);
  }

  /**
   * Display column and row (0 = top) of a board coordinate.
   * @param {number} x
   * @param {number} y
   */
  place(x, y) {
    const { width, height } = this.variant;
    return this.flipped ? { col: width - 1 - x, row: y } : { col: x, row: height - 1 - y };
  }

  build() {
    const { width, height } = this.variant;
    this.el.textContent = "";
    this.cells.clear();
    for (let row = 0; row < height; row++) {
      const rowEl = document.createElement("div");
      rowEl.setAttribute("role", "row");
      rowEl.style.display = "contents";
      for (let col = 0; col < width; col++) {
        const x = this.flipped ? width - 1 - col : col;
        const y = this.flipped ? row : height - 1 - row;
        const name = this.byXY.get(`${x},${y}`);
        if (!name) {
          const light = document.createElement("div");
          light.className = "sq";
          light.setAttribute("role", "gridcell");
          rowEl.append(light);
          continue;
        }
        const b = document.createElement("button");
        b.type = "button";
        b.className = "sq dark";
        b.dataset.sq = name;
        b.setAttribute("role", "gridcell");
        b.tabIndex = name === this.focused ? 0 : -1;
        const label = document.createElement("span");
        label.className = "coord name";
        label.textContent = name;
        b.append(label);
        rowEl.append(b);
        this.cells.set(name, b);
      }
      this.el.append(rowEl);
    }
  }

  /** @param {BoardState} state */
  render(state) {
    this.state = state;
    const pathIndex = new Map((state.path || []).map((s, i) => [s, i]));
    for (const [name, cell] of this.cells) {
      for (const el of cell.querySelectorAll(".piece, .dot, .ring, .hop")) el.remove();
      const piece = state.pieces.get(name);
      cell.classList.toggle("selected", state.selected === name);
      cell.classList.toggle("last", !!state.last?.includes(name));
      let label = name;
      if (piece) {
        const p = document.createElement("div");
        p.className = `piece ${piece.color}${piece.king ? " king" : ""}`;
        if (state.must?.has(name)) p.classList.add("must");
        if (state.taken?.has(name)) p.classList.add("taken");
        cell.append(p);
        label = t("board.square_piece", {
          square: name,
          piece: t(`piece.${piece.color}_${piece.king ? "king" : "man"}`),
        });
      }
      if (state.hops?.has(name)) {
        const d = document.createElement("div");
        d.className = "dot";
        cell.append(d);
        label += `, ${t("board.can_go")}`;
      } else if (state.ends?.has(name)) {
        const r = document.createElement("div");
        r.className = "ring";
        cell.append(r);
        label += `, ${t("board.can_go")}`;
      }
      const hop = pathIndex.get(name);
      if (hop !== undefined && hop > 0) {
        const h = document.createElement("span");
        h.className = "hop";
        h.textContent = String(hop);
        cell.append(h);
      }
      cell.setAttribute("aria-label", label);
    }
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (e.button !== 0) return;
    const cell = /** @type {HTMLElement} */ (e.target).closest?.(".sq.dark");
    if (!(cell instanceof HTMLElement)) return;
    const name = cell.dataset.sq || "";
    const start = { x: e.clientX, y: e.clientY };
    /** @type {HTMLElement | null} */
    let ghost = null;
    let dragging = false;
    const move = (/** @type {PointerEvent} */ ev) => {
      if (!dragging && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) > 6) {
        const piece = cell.querySelector(".piece");
        if (!piece || !this.handlers.onDragStart(name)) return;
        dragging = true;
        ghost = /** @type {HTMLElement} */ (piece.cloneNode(true));
        ghost.classList.add("ghost");
        const r = cell.getBoundingClientRect();
        ghost.style.width = `${r.width * 0.78}px`;
        ghost.style.height = `${r.height * 0.78}px`;
        document.body.append(ghost);
        const orig = this.cells.get(name)?.querySelector(".piece");
        if (orig instanceof HTMLElement) orig.style.visibility = "hidden";
        this.el.classList.add("moving");
      }
      if (ghost) {
        ghost.style.left = `${ev.clientX}px`;
        ghost.style.top = `${ev.clientY}px`;
      }
    };
    const up = (/** @type {PointerEvent} */ ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      this.el.classList.remove("moving");
      if (ghost) ghost.remove();
      if (dragging) {
        const target = document.elementFromPoint(ev.clientX, ev.clientY)?.closest?.(".sq.dark");
        const to = target instanceof HTMLElement ? target.dataset.sq : undefined;
        if (to && to !== name) this.handlers.onSquare(to);
        else this.render(this.state);
      } else if (ev.type === "pointerup") {
        this.focus(name, false);
        this.handlers.onSquare(name);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
    e.preventDefault();
  }

  /** @param {KeyboardEvent} e */
  keyDown(e) {
    const cell = /** @type {HTMLElement} */ (e.target).closest?.(".sq.dark");
    if (!(cell instanceof HTMLElement)) return;
    const name = cell.dataset.sq || "";
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.handlers.onSquare(name);
      return;
    }
    const moves = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-2, 0], ArrowRight: [2, 0] };
    const d = moves[/** @type {keyof typeof moves} */ (e.key)];
    if (!d) return;
    e.preventDefault();
    const info = this.byName.get(name);
    if (!info) return;
    const { col, row } = this.place(info.x, info.y);
    const tries = d[1] ? [[col, row + d[1]], [col + 1, row + d[1]], [col - 1, row + d[1]]] : [[col + d[0], row]];
    for (const [c, r] of tries) {
      const x = this.flipped ? this.variant.width - 1 - c : c;
      const y = this.flipped ? r : this.variant.height - 1 - r;
      const next = this.byXY.get(`${x},${y}`);
      if (next) {
        this.focus(next, true);
        return;
      }
    }
  }

  /** @param {string} name @param {boolean} move */
  focus(name, move) {
    const old = this.cells.get(this.focused);
    if (old) old.tabIndex = -1;
    this.focused = name;
    const cell = this.cells.get(name);
    if (cell) {
      cell.tabIndex = 0;
      if (move) cell.focus();
    }
  }
}
