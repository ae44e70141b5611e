"""How fast the search bot decides: `python tools/bench_search.py cernunos --bot search:400 --games 2`.

Plays GAMES games of the search bot against random bots, or against the bot `--against` names
(the search bot's seat turns from game to game) in one process, and prints the search bot's
decisions per second: over every decision it was asked, and over those with more than one option
(the others are answered without searching).
"""
from __future__ import annotations

import argparse
import time

from interpreter import Game, load
from interpreter.agents.bots import make_agent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--bot", default="search:400")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--against", default="random", help="the other seats' bot")
    parser.add_argument("--players", default=None, help="who sits at the table, comma-separated")
    args = parser.parse_args()
    ruleset = load(args.game)
    asked = searched = wins = 0
    thinking = 0.0
    for seed in range(args.games):
        game = Game(ruleset, seed=seed, players=args.players.split(",") if args.players else None)
        me = game.players[seed % len(game.players)]
        agents = {p: make_agent(args.bot if p == me else args.against, ruleset, game, seed * 1000 + i)
                  for i, p in enumerate(game.players)}
        while not game.finished:
            decision = game.decision
            start = time.perf_counter()
            index = agents[decision.player].choose(decision)
            if decision.player == me:
                thinking += time.perf_counter() - start
                asked += 1
                searched += len(decision.options) > 1
            game.choose(index)
        wins += me in game.result.winners
        print(f"game {seed}: {me} ({args.bot}) {'won' if me in game.result.winners else 'lost'}, "
              f"{len(game.log)} decisions", flush=True)
    print(f"{args.game}, {args.bot} against {args.against}, {args.games} game(s), {wins} won: {asked} decisions "
          f"({searched} with a choice) in {thinking:.1f} s: {asked / thinking:.2f} decisions/s, "
          f"{searched / thinking:.2f} searched decisions/s")


if __name__ == "__main__":
    main()
