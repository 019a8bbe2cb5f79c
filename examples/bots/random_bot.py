#!/usr/bin/env python3
"""A bkbot/1 bot in Python: plays a random legal move, preferring to build over stopping.

Run it in a game:  bkref simulate --players 3 --seed 1 --policy 'cmd:python3 examples/bots/random_bot.py'
It reads one JSON message a line on standard input and answers on standard output
(docs/bot-protocol.md). Its own randomness comes from the game's `seed`, so a game replays.
"""

import json
import random
import sys

rng = random.Random(0)
hand = []  # what the bot holds at the start of this turn


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(decision):
    moves = decision["moves"]
    if decision["kind"] in ("camp", "build") and len(moves) > 1:
        return rng.randrange(len(moves) - 1)  # anything but the null at the end
    return rng.randrange(len(moves))


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        send({"type": "hello", "protocol": "bkbot/1", "name": "random_bot.py", "version": "1"})
    elif kind == "game":
        rng.seed(message["seed"])
    elif kind == "hand":
        hand = message["cards"]
    elif kind == "decide":
        move = {"type": "move", "id": message["id"], "index": choose(message)}
        if message["kind"] == "pick":
            move["info"] = {"hand": len(hand)}  # any JSON: bkref records it in the log's meta
        send(move)
    elif kind == "over":
        print("over:", message["scores"], file=sys.stderr)
    elif kind == "quit":
        break
