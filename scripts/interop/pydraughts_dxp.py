"""Plays `dama dxp` (follower) against pydraughts' DXP client (initiator) over TCP: pydraughts
proposes a game with a clock, plays random legal moves, and checks every move dama sends.

Usage: python3 pydraughts_dxp.py path/to/dama [port] [plies]
"""
import random
import subprocess
import sys
import time

from draughts import Board
from draughts.engine import DXPEngine


def main() -> int:
    dama = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 27531
    plies = int(sys.argv[3]) if len(sys.argv) > 3 else 40
    server = subprocess.Popen([dama, "dxp", "--port", str(port), "--max-games", "1"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        time.sleep(0.5)
        engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": port},
                           initial_time=120)
        board = Board(variant="standard")
        rng = random.Random(7)
        played = 0
        # pydraughts starts the game on the first play(); dama is the side to move then.
        while played < plies and not board.is_over():
            if played % 2 == 0:
                result = engine.play(board)
                move = result.move
                legal = [m.pdn_move for m in board.legal_moves()]
                assert move is not None and move.pdn_move in legal, (move, legal)
                board.push(move)
            else:
                board.push(rng.choice(board.legal_moves()))
            played += 1
        assert engine.id.get("name", "").startswith("dama"), engine.id
        engine.quit()
        print(f"dxp ok: {played} plies against {engine.id['name']!r}")
    finally:
        time.sleep(0.5)
        server.terminate()
        out = server.communicate(timeout=10)[0]
        print(out.strip().splitlines()[:3])
    return 0


if __name__ == "__main__":
    sys.exit(main())
