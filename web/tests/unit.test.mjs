// Unit tests of the UI's pure modules (no browser).
import { test } from "node:test";
import assert from "node:assert/strict";
import { MoveInput, messageForIllegal, mustCaptureMessage } from "../app/js/moveinput.js";
import { parseFen, countPieces } from "../app/js/fen.js";
import { chooseLanguage, format } from "../app/js/i18n.js";
import { numberMoves, jumped } from "../app/js/movelist.js";

// A small Russian position: White c3 can jump d4 (landing e5), then on to g7? No: f6 is empty,
// so the capture is c3:e5. White also has a man on a1 that could move quietly if no capture.
const coords = new Map();
for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) {
  if ((x + y) % 2 === 0) coords.set(`${"abcdefgh"[x]}${y + 1}`, { x, y });
}

function ctx(legal, fen, extra = {}) {
  const board = parseFen(fen);
  return { legal, pieces: board.pieces, turn: board.turn, coords, blocked: null, ...extra };
}

const capture = { from: "c3", to: "e5", captured: ["d4"], paths: [["c3", "e5"]], notation: "c3:e5" };

test("a compulsory capture is explained with the piece that can jump", () => {
  const input = new MoveInput();
  const c = ctx([capture], "W:Wa1,c3:Bd4,h8");
  assert.deepEqual(input.click(c, "a1"), {
    kind: "explain",
    message: { key: "msg.must_capture_one", params: { square: "c3" } },
  });
  assert.deepEqual(input.click(c, "c3"), { kind: "select" });
  const { hops, ends } = input.targets(c);
  assert.deepEqual([...hops], ["e5"]);
  assert.deepEqual([...ends], ["e5"]);
  assert.deepEqual(input.click(c, "b4"), { kind: "explain", message: { key: "msg.must_jump" } });
  assert.deepEqual(input.click(c, "e5"), { kind: "move", path: ["c3", "e5"] });
  assert.equal(input.selected, null);
});

test("multi-jumps go hop by hop and two paths to one square need the path", () => {
  // Two different captures from a1 both end on e5 (via c3 taking b2+d4, or via ... ): as the
  // server would send them.
  const m1 = { from: "a1", to: "e5", captured: ["b2", "d4"], paths: [["a1", "c3", "e5"]], notation: "a1:c3:e5" };
  const m2 = { from: "a1", to: "e5", captured: ["b2", "d2", "f4"], paths: [["a1", "c3", "e1", "g3", "e5"]], notation: "a1:e5" };
  const input = new MoveInput();
  const c = ctx([m1, m2], "W:WKa1:Bb2,d4,d2,f4");
  input.click(c, "a1");
  assert.deepEqual(input.click(c, "e5"), { kind: "explain", message: { key: "msg.choose_path" } });
  assert.deepEqual(input.click(c, "c3"), { kind: "extend" });
  assert.deepEqual([...input.targets(c).hops].sort(), ["e1", "e5"]);
  assert.deepEqual(input.click(c, "h8"), { kind: "explain", message: { key: "msg.keep_jumping" } });
  assert.deepEqual(input.click(c, "e1"), { kind: "extend" });
  assert.deepEqual(input.click(c, "g3"), { kind: "extend" });
  assert.deepEqual(input.click(c, "e5"), { kind: "move", path: ["a1", "c3", "e1", "g3", "e5"] });
});

test("other explanations", () => {
  const quiet = [
    { from: "c3", to: "d4", captured: [], paths: [["c3", "d4"]], notation: "c3-d4" },
    { from: "c3", to: "b4", captured: [], paths: [["c3", "b4"]], notation: "c3-b4" },
  ];
  const input = new MoveInput();
  const c = ctx(quiet, "W:Wc3,a1:Bh8");
  assert.equal(input.click(c, "h8").message.key, "msg.opponent_piece");
  assert.equal(input.click(c, "e5").message.key, "msg.choose_piece");
  assert.equal(input.click(c, "a1").message.key, "msg.piece_cannot_move");
  input.click(c, "c3");
  assert.equal(input.click(c, "b2").message.key, "msg.men_forward");
  assert.equal(input.click(c, "f6").message.key, "msg.cannot_reach");
  // Clicking the selected piece again lets it go.
  assert.deepEqual(input.click(c, "c3"), { kind: "clear" });
  // A blocked board explains why.
  const blocked = ctx(quiet, "W:Wc3:Bh8", { blocked: "msg.not_your_turn" });
  assert.equal(input.click(blocked, "c3").message.key, "msg.not_your_turn");
});

test("typed moves match notation, full paths and unique start-end pairs", () => {
  const c = ctx([capture], "W:Wa1,c3:Bd4,h8");
  assert.deepEqual(MoveInput.parseTyped(c, "c3:e5"), ["c3", "e5"]);
  assert.deepEqual(MoveInput.parseTyped(c, "C3xE5"), ["c3", "e5"]);
  assert.equal(MoveInput.parseTyped(c, "a1-b2"), null);
  assert.equal(MoveInput.parseTyped(c, "nonsense"), null);
});

test("server reasons map to messages", () => {
  assert.deepEqual(messageForIllegal({ code: "must_capture", pieces: ["c3", "e3"] }), {
    key: "msg.must_capture_many",
    params: { squares: "c3, e3" },
  });
  assert.equal(messageForIllegal({ code: "wrong_capture", most_pieces_rule: true }).key, "msg.must_capture_most");
  assert.equal(messageForIllegal({ code: "cannot_reach", backwards: true }).key, "msg.men_forward");
  assert.equal(messageForIllegal(undefined).key, "msg.bad_path");
  assert.equal(mustCaptureMessage([capture, { ...capture, from: "g3" }]).params.squares, "c3, g3");
});

test("FEN with kings, ranges and numbers", () => {
  const b = parseFen("B:W31-33,K5:Bc3,K12.");
  assert.equal(b.turn, "black");
  assert.deepEqual(b.pieces.get("32"), { color: "white", king: false });
  assert.deepEqual(b.pieces.get("5"), { color: "white", king: true });
  assert.deepEqual(b.pieces.get("12"), { color: "black", king: true });
  assert.deepEqual(countPieces(b), { white: 4, black: 2 });
});

test("language choice and message formatting", () => {
  assert.equal(chooseLanguage(["hi-IN", "en"], null), "hi");
  assert.equal(chooseLanguage(["de-DE", "ru"], null), "ru");
  assert.equal(chooseLanguage(["de"], null), "en");
  assert.equal(chooseLanguage(["hi"], "mr"), "mr");
  assert.equal(chooseLanguage(["hi"], "xx"), "hi");
  assert.equal(format("Level {level} of {n}", { level: 2 }), "Level 2 of {n}");
});

test("moves are numbered in pairs from the first player", () => {
  const plies = [{ color: "black" }, { color: "white" }, { color: "black" }];
  assert.deepEqual(numberMoves(plies, "black"), [
    { number: 1, cells: [0, 1] },
    { number: 2, cells: [2, null] },
  ]);
  // A game that starts with the second player to move.
  assert.deepEqual(numberMoves([{ color: "black" }, { color: "white" }], "white"), [
    { number: 1, cells: [null, 0] },
    { number: 2, cells: [1, null] },
  ]);
  const byXY = new Map([...coords].map(([n, c]) => [`${c.x},${c.y}`, n]));
  const pieces = parseFen("W:WKa1:Bc3,f6").pieces;
  assert.deepEqual([...jumped(["a1", "d4", "g7"], coords, byXY, pieces, "white")].sort(), ["c3", "f6"]);
});
