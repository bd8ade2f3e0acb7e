// Reading positions in FEN as the server writes them: "W:W21,22,K30:B1,2,K5".

/**
 * @typedef {{color: "white" | "black", king: boolean}} Piece
 * @typedef {{turn: "white" | "black", pieces: Map<string, Piece>}} Board
 */

/**
 * @param {string} fen
 * @returns {Board}
 */
export function parseFen(fen) {
  const fields = fen.trim().replace(/\.$/, "").split(":");
  const turn = fields[0] === "B" ? "black" : "white";
  /** @type {Map<string, Piece>} */
  const pieces = new Map();
  for (const field of fields.slice(1)) {
    const letter = field[0];
    if (letter !== "W" && letter !== "B") continue;
    const color = letter === "W" ? "white" : "black";
    for (let item of field.slice(1).split(",")) {
      item = item.trim();
      if (!item) continue;
      const king = item[0] === "K";
      if (king) item = item.slice(1);
      const range = /^(\d+)-(\d+)$/.exec(item);
      if (range) {
        for (let n = Number(range[1]); n <= Number(range[2]); n++) pieces.set(String(n), { color, king });
      } else {
        pieces.set(item, { color, king });
      }
    }
  }
  return { turn, pieces };
}

/**
 * Pieces of each colour.
 * @param {Board} board
 */
export function countPieces(board) {
  let white = 0;
  let black = 0;
  for (const p of board.pieces.values()) {
    if (p.color === "white") white++;
    else black++;
  }
  return { white, black };
}
