#!/usr/bin/env python3
"""Cross-checks dama's legal moves against an independent implementation: the PyPI package
pydraughts (`pip install pydraughts`).

For each variant both implement, random games are played with pydraughts; in every position
the legal moves of both (start square, end square, captured squares) must be the same set.
Squares are matched through each program's own FEN reading, so numbering conventions do not
matter.

Usage: scripts/crosscheck/pydraughts_moves.py [--games N] [--dama PATH]
Exit status 1 if any position differs (the first differences are printed).
"""

import argparse
import json
import random
import subprocess
import sys

from draughts import Board

# dama key -> pydraughts variant name
VARIANTS = {
    "international": "standard",
    "frisian": "frisian",
    "antidraughts": "antidraughts",
    "russian": "russian",
    "brazilian": "brazilian",
    "english": "english",
    "italian": "italian",
}


def dama_moves(dama, variant, fen):
    out = subprocess.run(
        [dama, "moves", "--variant", variant, "--fen", fen, "--json"],
        capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"dama failed on {variant} {fen}: {out.stderr.strip()}")
    moves = json.loads(out.stdout)
    return {(str(m["from"]), str(m["to"]), tuple(sorted(str(c) for c in m["captured"])))
            for m in moves}


def square_names(dama, variant, pd_variant):
    """Maps pydraughts' internal square numbers to dama's square names, by placing a lone
    White king on each square (named in dama's notation) and reading where pydraughts moves it
    from."""
    names = []
    n = 1
    while True:
        name = dama_name(dama, variant, n)
        if name is None:
            break
        names.append(name)
        n += 1
    mapping = {}
    for i, name in enumerate(names):
        other = names[1] if i == 0 else names[0]
        board = Board(variant=pd_variant, fen=f"W:WK{name}:BK{other}")
        starts = {m.steps_move[0] for m in board.legal_moves()}
        if len(starts) != 1:
            raise RuntimeError(f"cannot place square {name} of {variant} in pydraughts")
        mapping[starts.pop()] = name
    return mapping


def dama_name(dama, variant, n):
    """dama's name of the square numbered n (None past the last square)."""
    out = subprocess.run([dama, "fen", "--variant", variant, f"W:W{n}:B"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        # A man cannot stand on its crowning row; a king can.
        out = subprocess.run([dama, "fen", "--variant", variant, f"W:WK{n}:B"],
                             capture_output=True, text=True, check=False)
        if out.returncode != 0:
            return None
    fen = out.stdout.splitlines()[0].strip()  # canonical: W:W<name>:B
    return fen.split(":")[1].lstrip("W").lstrip("K")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--dama", default="target/release/dama")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    failures = 0
    for variant, pd_variant in VARIANTS.items():
        mapping = square_names(args.dama, variant, pd_variant)
        positions = 0
        for _ in range(args.games):
            board = Board(variant=pd_variant)
            for _ in range(200):
                legal = board.legal_moves()
                if not legal:
                    break
                theirs = {(mapping[m.steps_move[0]], mapping[m.steps_move[-1]],
                           tuple(sorted(mapping[c] for c in m.captures))) for m in legal}
                ours = dama_moves(args.dama, variant, board.fen)
                positions += 1
                if ours != theirs:
                    failures += 1
                    if failures <= 10:
                        print(f"{variant} {board.fen}\n  only dama: {sorted(ours - theirs)}"
                              f"\n  only pydraughts: {sorted(theirs - ours)}")
                    break
                board.push(rng.choice(legal))
        print(f"{variant}: {positions} positions compared")
    print("differences:", failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
