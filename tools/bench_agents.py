"""What the learning adapters cost: `python tools/bench_agents.py root --players marquise,eyrie,alliance,vagabond`.

Plays the same random games (`--games`, seeds 0, 1...) four ways in one process, and prints the steps
per second of each and its ratio to the first:
- the engine's own loop (`Game.choose` with a random index, no observation);
- an `Episode` (slots in the order of their labels, each player's log), still without observations;
- PettingZoo's AEC environment, observing the player to act (tensor and mask) at every step;
- OpenSpiel's state, reading the acting player's observation tensor at every step.
A step is an answer to a decision (the adapters' page turns counted as steps too).
"""
from __future__ import annotations

import argparse
import random
import time

import pyspiel

import interpreter.learning.openspiel_game  # noqa: F401  (registers `ludolex`)
from interpreter import Game
from interpreter.learning.encoding import Layout, loaded
from interpreter.learning.episode import Episode
from interpreter.learning.pettingzoo_env import env
from interpreter.play.game import seating


def engine(ruleset, players, seed):
    game, rng, steps = Game(ruleset, seed, players=players), random.Random(seed), 0
    while game.decisions:
        decision = game.decisions[0]
        game.choose(rng.randrange(len(decision.options)), by=decision.player if game.at_once else None)
        steps += 1
    return steps


def episode(ruleset, players, seed):
    run, rng = Episode(Layout(ruleset, players), seed), random.Random(seed)
    while not run.finished:
        run.apply(rng.choice(run.legal_actions()))
    return len(run.actions)


def pettingzoo(ruleset, players, seed):
    aec, steps = env(str(ruleset.directory), players), 0
    aec.reset(seed=seed)
    for i, agent in enumerate(aec.possible_agents):
        aec.action_space(agent).seed(seed + i)
    for agent in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else aec.action_space(agent).sample(observation["action_mask"]))
        steps += not (terminated or truncated)
    return steps


def openspiel(ruleset, players, seed):
    game = pyspiel.load_game("ludolex", {"game": str(ruleset.directory), "players": "+".join(players)})
    state, rng, steps = game.new_initial_state(), random.Random(seed), 0
    state.apply_action(seed)
    while not state.is_terminal():
        state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", default=None, help="who sits at the table, comma-separated")
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    ruleset = loaded(args.game)
    players = seating(ruleset, args.players.split(",") if args.players else None)
    rates = {}
    for name, play in [("engine loop", engine), ("episode", episode), ("pettingzoo AEC", pettingzoo),
                       ("openspiel", openspiel)]:
        start, steps = time.process_time(), 0
        for seed in range(args.games):
            steps += play(ruleset, players, seed)
        rates[name] = steps / (time.process_time() - start)
        print(f"{name:15} {steps:7} steps  {rates[name]:8.0f} steps per CPU-second  "
              f"{rates[name] / rates['engine loop']:.2f} of the engine loop", flush=True)


if __name__ == "__main__":
    main()
