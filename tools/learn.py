"""A small learning run through the OpenSpiel adapter: `python tools/learn.py cernunos --episodes 8000`.

OpenSpiel's DQN (its PyTorch version: `pip install torch dm-tree`, a CPU build does; `--algorithm
a2c` and the other losses of its `policy_gradient` too) learns one seat's play against uniformly
random players, a network per seat, the seats taking turns to train. Every `--every` training
episodes, each network plays `--evaluate` games against random players in its seat, greedily; the
win rate over the seats is one point of the curve, printed as it comes and written to `--out` (CSV:
episodes, win rate, its 95% Wilson interval). The network's inputs are the observation tensor
squashed (`as_arrays`).
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
from open_spiel.python.pytorch import dqn, policy_gradient

from interpreter.learning.openspiel_game import DEALS  # and registers `ludolex`


def wilson(wins: int, games: int) -> tuple[float, float]:
    if not games:
        return 0.0, 1.0
    p, z = wins / games, 1.96
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def as_arrays(time_step):
    """The observations as float32 arrays (not lists of Python floats: a replay buffer holds many),
    squashed: counts, turns and numbers of options grow, and a network learns better from small inputs."""
    seen = [np.asarray(tensor, np.float32) for tensor in time_step.observations["info_state"]]
    time_step.observations["info_state"] = [np.sign(tensor) * np.log1p(np.abs(tensor)) for tensor in seen]
    return time_step


def play(environment, agents, learner: int, rng: random.Random, evaluating: bool) -> float:
    """One episode: `agents[learner]` in its seat, random players elsewhere. Its return."""
    time_step = as_arrays(environment.reset())
    while not time_step.last():
        player = time_step.observations["current_player"]
        if player == learner:
            action = agents[learner].step(time_step, is_evaluation=evaluating).action
        else:
            action = rng.choice(time_step.observations["legal_actions"][player])
        time_step = as_arrays(environment.step([action]))
    if not evaluating:
        agents[learner].step(time_step)  # the last step: the network learns the result
    return time_step.rewards[learner]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="cernunos")
    parser.add_argument("--episodes", type=int, default=8000)
    parser.add_argument("--every", type=int, default=500)
    parser.add_argument("--evaluate", type=int, default=300, help="games per evaluation, over the seats")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="learning-curve.csv")
    parser.add_argument("--algorithm", default="dqn", help="dqn, or a loss of policy_gradient: a2c, rpg, qpg, rm")
    parser.add_argument("--hidden", type=int, default=256, help="units of the hidden layer")
    parser.add_argument("--rate", type=float, default=0.0005, help="the learning rate (the policy's, for a2c...)")
    parser.add_argument("--critic-rate", type=float, default=0.01)
    parser.add_argument("--critic-steps", type=int, default=8, help="critic updates per policy update")
    parser.add_argument("--batch", type=int, default=16, help="transitions per update")
    args = parser.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    game = pyspiel.load_game("ludolex", {"game": args.game, "seed": args.seed})
    deals = random.Random(args.seed)
    environment = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION,
                                             chance_event_sampler=lambda state: deals.randrange(DEALS))
    size = environment.observation_spec()["info_state"][0]
    seats = game.num_players()
    actions = game.num_distinct_actions()
    if args.algorithm == "dqn":
        agents = [dqn.DQN(seat, size, actions, hidden_layers_sizes=[args.hidden], replay_buffer_capacity=20_000,
                          batch_size=64, learning_rate=args.rate, optimizer_str="adam", min_buffer_size_to_learn=500,
                          learn_every=4, update_target_network_every=250, epsilon_start=1.0, epsilon_end=0.05,
                          epsilon_decay_duration=args.episodes * 8, seed=args.seed + seat)
                  for seat in range(seats)]
    else:
        agents = [policy_gradient.PolicyGradient(seat, size, actions, loss_str=args.algorithm,
                                                 hidden_layers_sizes=[args.hidden], batch_size=args.batch,
                                                 critic_learning_rate=args.critic_rate, pi_learning_rate=args.rate,
                                                 entropy_cost=0.01, num_critic_before_pi=args.critic_steps,
                                                 optimizer_str="adam")
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
