// Turning clicks on squares into moves, hop by hop, and explaining in plain words why an
// attempt is not a move. Legality comes from the server: `legal` is the list it sent, each
// move with every path by which it can be made. Nothing here touches the page, so it is
// tested in Node.

/**
 * @typedef {{from: string, to: string, captured: string[], paths: string[][], notation: string}} Legal
 * @typedef {{color: "white" | "black", king: boolean}} Piece
 * @typedef {{key: string, params?: Record<string, string | number>}} Message
 * @typedef {{
 *   legal: Legal[],
 *   pieces: Map<string, Piece>,
 *   turn: "white" | "black",
 *   coords: Map<string, {x: number, y: number}>,
 *   blocked?: string | null,
 * }} Context
 * @typedef {{kind: "select" | "extend" | "clear"} | {kind: "move", path: string[]} | {kind: "explain", message: Message}} Outcome
 */

/** @param {string[]} a @param {string[]} b */
function startsWith(a, b) {
  return b.length <= a.length && b.every((s, i) => a[i] === s);
}

/**
 * The message for "you must capture", naming the pieces that can.
 * @param {Legal[]} legal
 * @returns {Message}
 */
export function mustCaptureMessage(legal) {
  const pieces = [...new Set(legal.map((m) => m.from))];
  return pieces.length === 1
    ? { key: "msg.must_capture_one", params: { square: pieces[0] } }
    : { key: "msg.must_capture_many", params: { squares: pieces.join(", ") } };
}

/**
 * The message for an `illegal` reason sent by the server.
 * @param {any} reason
 * @returns {Message}
 */
export function messageForIllegal(reason) {
  switch (reason?.code) {
    case "no_piece": return { key: "msg.choose_piece" };
    case "not_your_piece": return { key: "msg.opponent_piece" };
    case "must_capture":
      return reason.pieces.length === 1
        ? { key: "msg.must_capture_one", params: { square: reason.pieces[0] } }
        : { key: "msg.must_capture_many", params: { squares: reason.pieces.join(", ") } };
    case "wrong_capture":
      return { key: reason.most_pieces_rule ? "msg.must_capture_most" : "msg.must_jump" };
    case "piece_cannot_move": return { key: "msg.piece_cannot_move" };
    case "cannot_reach": return { key: reason.backwards ? "msg.men_forward" : "msg.cannot_reach" };
    case "ambiguous": return { key: "msg.choose_path" };
    default: return { key: "msg.bad_path" };
  }
}

export class MoveInput {
  constructor() {
    /** The squares chosen so far: the piece, then its landing squares. @type {string[]} */
    this.partial = [];
  }

  reset() {
    this.partial = [];
  }

  /** The selected piece, if any. */
  get selected() {
    return this.partial[0] ?? null;
  }

  /**
   * Paths that continue the squares chosen so far.
   * @param {Context} ctx
   * @returns {Array<{path: string[], move: Legal}>}
   */
  candidates(ctx) {
    if (!this.partial.length) return [];
    const out = [];
    for (const m of ctx.legal) {
      if (m.from !== this.partial[0]) continue;
      for (const p of m.paths) if (startsWith(p, this.partial)) out.push({ path: p, move: m });
    }
    return out;
  }

  /**
   * Where the selected piece can go next: `hops` are the next landing squares, `ends` the
   * final squares of its moves; `captured` the pieces already jumped on the chosen path.
   * @param {Context} ctx
   */
  targets(ctx) {
    const hops = new Set();
    const ends = new Set();
    const n = this.partial.length;
    for (const { path } of this.candidates(ctx)) {
      if (path.length > n) hops.add(path[n]);
      ends.add(path[path.length - 1]);
    }
    return { hops, ends };
  }

  /**
   * Pieces that can move now (all of them capture when a capture is compulsory).
   * @param {Context} ctx
   */
  movable(ctx) {
    return new Set(ctx.legal.map((m) => m.from));
  }

  /**
   * Handles a click (or a drop) on a square.
   * @param {Context} ctx
   * @param {string} square
   * @returns {Outcome}
   */
  click(ctx, square) {
    if (ctx.blocked) {
      this.reset();
      return { kind: "explain", message: { key: ctx.blocked } };
    }
    const piece = ctx.pieces.get(square);
    const mustCapture = ctx.legal.some((m) => m.captured.length > 0);
    if (this.partial.length === 1 && square === this.partial[0]) {
      this.reset();
      return { kind: "clear" };
    }
    // Another own piece: start again from it (only before the first hop).
    if (this.partial.length <= 1 && piece && piece.color === ctx.turn && square !== this.partial[0]) {
      this.reset();
    }
    if (!this.partial.length) {
      if (!piece) return { kind: "explain", message: { key: "msg.choose_piece" } };
      if (piece.color !== ctx.turn) return { kind: "explain", message: { key: "msg.opponent_piece" } };
      if (!ctx.legal.some((m) => m.from === square)) {
        if (mustCapture) return { kind: "explain", message: mustCaptureMessage(ctx.legal) };
        return { kind: "explain", message: { key: "msg.piece_cannot_move" } };
      }
      this.partial = [square];
      return { kind: "select" };
    }
    const cands = this.candidates(ctx);
    const n = this.partial.length;
    const next = cands.filter(({ path }) => path.length > n && path[n] === square);
    if (next.length) {
      this.partial.push(square);
      const complete = next.find(({ path }) => path.length === this.partial.length);
      if (complete) {
        const path = [...this.partial];
        this.reset();
        return { kind: "move", path };
      }
      return { kind: "extend" };
    }
    const ending = cands.filter(({ path }) => path[path.length - 1] === square);
    if (ending.length) {
      const moves = new Set(ending.map(({ move }) => move));
      if (moves.size === 1) {
        const path = ending[0].path;
        this.reset();
        return { kind: "move", path };
      }
      return { kind: "explain", message: { key: "msg.choose_path" } };
    }
    if (n > 1) return { kind: "explain", message: { key: "msg.keep_jumping" } };
    if (mustCapture) return { kind: "explain", message: { key: "msg.must_jump" } };
    const from = ctx.coords.get(this.partial[0]);
    const to = ctx.coords.get(square);
    const moving = ctx.pieces.get(this.partial[0]);
    if (from && to && moving && !moving.king) {
      const backwards = moving.color === "white" ? to.y < from.y : to.y > from.y;
      if (backwards) return { kind: "explain", message: { key: "msg.men_forward" } };
    }
    if (!to) return { kind: "explain", message: { key: "msg.dark_squares" } };
    return { kind: "explain", message: { key: "msg.cannot_reach" } };
  }

  /**
   * A typed move ("c3-d4", "c3:e5:g7", "11x18"): the path of the matching legal move.
   * @param {Context} ctx
   * @param {string} text
   * @returns {string[] | null}
   */
  static parseTyped(ctx, text) {
    const squares = text.trim().toLowerCase().split(/[-x:\s]+/).filter(Boolean);
    if (squares.length < 2) return null;
    const matches = [];
    for (const m of ctx.legal) {
      if (m.notation.toLowerCase() === text.trim().toLowerCase()) return m.paths[0];
      for (const p of m.paths) {
        const full = p.length === squares.length && p.every((s, i) => s === squares[i]);
        const ends = squares.length === 2 && p[0] === squares[0] && p[p.length - 1] === squares[1];
        if (full) return p;
        if (ends) matches.push({ m, p });
      }
    }
    const distinct = new Set(matches.map((x) => x.m));
    return distinct.size === 1 ? matches[0].p : null;
  }
}
