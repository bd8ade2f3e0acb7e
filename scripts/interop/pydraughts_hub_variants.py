"""Drives `dama hub` with pydraughts' HubEngine in the other 10x10 variants both know: each
move dama sends must be legal by pydraughts' rules. (For the 8x8 variants pydraughts numbers
the squares from the other side of the board than the variants' standard numbering, so Hub
positions of those variants do not mean the same thing to both programs.)

Usage: python3 pydraughts_hub_variants.py path/to/dama [plies]
"""
import sys

from draughts import Board
from draughts.engine import HubEngine, Limit

# pydraughts variant name -> dama's key
VARIANTS = {
    "frisian": "frisian",
    "antidraughts": "antidraughts",
}


def main() -> int:
    dama = sys.argv[1]
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    for theirs, ours in VARIANTS.items():
        engine = HubEngine([dama, "hub"])
        engine.setoption("variant", ours)
        engine.init()
        board = Board(variant=theirs)
        played = 0
        while played < plies and not board.is_over():
            result = engine.play(board, Limit(movetime=0.03), ponder=False)
            legal = [m.pdn_move for m in board.legal_moves()]
            assert result.move.pdn_move in legal, (theirs, result.move.pdn_move, legal)
            board.push(result.move)
            played += 1
        engine.quit()
        engine.kill_process()
        print(f"{theirs}: {played} plies ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
