"""Drives `dama hub` with pydraughts' HubEngine: a short game of International draughts in
which dama plays both sides, every move checked by pydraughts' own rules.

Usage: python3 pydraughts_hub.py path/to/dama [plies]
"""
import sys

from draughts import Board
from draughts.engine import HubEngine, Limit


def main() -> int:
    dama = sys.argv[1]
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    engine = HubEngine([dama, "hub"])
    assert engine.id.get("name") == "dama", engine.id
    assert "international" in engine.variants, engine.variants
    engine.init()
    engine.ping()
    board = Board(variant="standard")
    played = 0
    while played < plies and not board.is_over():
        result = engine.play(board, Limit(movetime=0.05), ponder=False)
        move = result.move
        legal = [m.pdn_move for m in board.legal_moves()]
        assert move.pdn_move in legal, (move.pdn_move, legal)
        board.push(move)
        played += 1
    # A depth-limited search and a clock search too.
    result = engine.play(board, Limit(depth=4), ponder=False) if not board.is_over() else None
    if result is not None:
        assert result.move.pdn_move in [m.pdn_move for m in board.legal_moves()]
    if not board.is_over():
        result = engine.play(board, Limit(time=5, inc=1), ponder=False)
        assert result.move.pdn_move in [m.pdn_move for m in board.legal_moves()]
        assert "depth" in engine.info and "score" in engine.info, engine.info
    engine.quit()
    engine.kill_process()
    print(f"hub ok: {played} plies, last info {engine.info}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
