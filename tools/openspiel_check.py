"""OpenSpiel's own consistency test on whole games: `python tools/openspiel_check.py root --games 1`.

Runs `pyspiel.random_sim_test` (with serialisation) on GAMES whole random games of the ruleset at the
table `--players` names (default: the game's own). The test suite runs it on short episodes (the test
copies the state at every step, and a copy replays the game: its cost grows with the square of a
game's length); this runs it to the end.
"""
from __future__ import annotations

import argparse
import time

import pyspiel

import interpreter.learning.openspiel_game  # noqa: F401  (registers `ludolex`)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", default="", help="who sits at the table, comma-separated")
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("ludolex", {"game": args.game, "players": args.players.replace(",", "+")})
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=args.games, serialize=True, verbose=False)
    print(f"{args.game}: random_sim_test passed on {args.games} whole game(s) "
          f"in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
