"""The worked example of docs/agents.md: OpenSpiel's ISMCTS and a PettingZoo masked random agent on a game.

    python tools/agents_example.py ismcts cernunos --games 20 --simulations 100
    python tools/agents_example.py masked root --games 5

`ismcts`: OpenSpiel's information-set MCTS (random rollouts) in one seat, turning from game to game,
against uniformly random players; it imagines what it cannot see with `resample_from_infostate`
(play/determinization.py). `--max-decisions` stops each game after that many of its decisions, for
the long games, where a rollout is a whole game. `masked`: PettingZoo's AEC loop, each agent sampling
among the actions its mask allows. Both print the results, by seat.
"""
from __future__ import annotations

import argparse
import collections
import random
import time

import numpy as np


def ismcts(args) -> None:
    import pyspiel
    from open_spiel.python.algorithms import ismcts as openspiel_ismcts
    from open_spiel.python.algorithms import mcts

    import interpreter.learning.openspiel_game  # noqa: F401  (registers `ludolex`)

    game = pyspiel.load_game("ludolex", {"game": args.game, "players": args.players.replace(",", "+"),
                                         "max_steps": args.max_decisions})
    players = game.layout.players
    rng, wins, searched, thinking = random.Random(args.seed), 0, 0, 0.0
    for number in range(args.games):
        seat = number % len(players)
        bot = openspiel_ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(number)), 2.0,
                                         args.simulations, random_state=np.random.RandomState(number))
        state = game.new_initial_state()
        state.apply_action(rng.randrange(game.max_chance_outcomes()))
        while not state.is_terminal():
            if state.current_player() == seat:
                start = time.process_time()
                state.apply_action(bot.step(state))
                thinking, searched = thinking + time.process_time() - start, searched + 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        result = state.returns()
        wins += result[seat] > 0
        print(f"game {number + 1}: ISMCTS as {players[seat]}: {result[seat]:+.0f} "
              f"({state.episode.game.result.reason if state.episode.game.result else 'stopped'})", flush=True)
    print(f"ISMCTS won {wins} of {args.games} games against random players ({len(players)} seats); "
          f"{searched} decisions, {thinking / max(searched, 1):.2f} CPU-seconds each")


def masked(args) -> None:
    from interpreter.learning.pettingzoo_env import env

    table = args.players.split(",") if args.players else None
    aec = env(args.game, table, max_steps=args.max_decisions)
    totals = collections.Counter()
    for number in range(args.games):
        aec.reset(seed=args.seed + number)
        for i, agent in enumerate(aec.possible_agents):
            aec.action_space(agent).seed(args.seed * 100 + number * 10 + i)
        steps = 0
        for agent in aec.agent_iter():
            observation, reward, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                totals[agent] += reward
                aec.step(None)
                continue
            aec.step(aec.action_space(agent).sample(observation["action_mask"]))
            steps += 1
        print(f"game {number + 1}: {steps} steps, {aec.episode.game.result.reason if aec.episode.game.result else 'truncated'}")
    print("returns by player:", dict(totals))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("example", choices=["ismcts", "masked"])
    parser.add_argument("game")
    parser.add_argument("--players", default="", help="who sits at the table, comma-separated")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations per decision")
    parser.add_argument("--max-decisions", type=int, default=0, help="stop each game after that many (0: never)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    {"ismcts": ismcts, "masked": masked}[args.example](args)


if __name__ == "__main__":
    main()
