"""A small learning run through the OpenSpiel adapter: `python tools/learn.py cernunos --episodes 3000`.

OpenSpiel's advantage actor-critic (`policy_gradient`, its PyTorch version: `pip install torch
dm-tree`, a CPU build does) learns one seat's play against uniformly random players, a network per
seat, the seats taking turns to train. It starts as a random player (its policy near uniform over
the legal slots). Every `--every` training episodes, each network plays `--evaluate` games against
random players in its seat, sampling from its policy; the win rate over the seats is one point of
the curve, printed as it comes and written to `--out` (CSV: episodes, win rate, its 95% Wilson
interval).
"""
from __future__ import annotations

import argparse
import csv
import math
import random

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import policy_gradient

from interpreter.learning.openspiel_game import DEALS  # and registers `ludolex`


def wilson(wins: int, games: int) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p, z = wins / games, 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play(environment, agents, learner: int, rng: random.Random, evaluating: bool) -> float:
    """One episode: `agents[learner]` in its seat, random players elsewhere. Its return."""
    time_step = environment.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        if player == learner:
            action = agents[learner].step(time_step, is_evaluation=evaluating).action
        else:
            action = rng.choice(time_step.observations["legal_actions"][player])
        time_step = environment.step([action])
    if not evaluating:
        agents[learner].step(time_step)  # the last step: the network learns the result
    return time_step.rewards[learner]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="cernunos")
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--every", type=int, default=250)
    parser.add_argument("--evaluate", type=int, default=200, help="games per evaluation, over the seats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="learning-curve.csv")
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    game = pyspiel.load_game("ludolex", {"game": args.game, "seed": args.seed})
    deals = random.Random(args.seed)
    environment = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION,
                                             chance_event_sampler=lambda state: deals.randrange(DEALS))
    size = environment.observation_spec()["info_state"][0]
    seats = game.num_players()
    agents = [policy_gradient.PolicyGradient(seat, size, game.num_distinct_actions(), loss_str="a2c",
                                             hidden_layers_sizes=[128], batch_size=16, critic_learning_rate=0.01,
                                             pi_learning_rate=0.001, entropy_cost=0.01, optimizer_str="adam")
              for seat in range(seats)]
    rng = random.Random(args.seed)
    curve = []

    def evaluate(episodes: int) -> None:
        wins = sum(play(environment, agents, n % seats, rng, evaluating=True) > 0 for n in range(args.evaluate))
        low, high = wilson(wins, args.evaluate)
        curve.append((episodes, wins / args.evaluate, low, high))
        print(f"{episodes:6} episodes: wins {wins / args.evaluate:.1%} of {args.evaluate} against random "
              f"(95%: {low:.1%} to {high:.1%})", flush=True)

    evaluate(0)
    for episode in range(1, args.episodes + 1):
        play(environment, agents, episode % seats, rng, evaluating=False)
        if episode % args.every == 0:
            evaluate(episode)
    with open(args.out, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["episodes", "win_rate", "low_95", "high_95"])
        writer.writerows(curve)


if __name__ == "__main__":
    main()
