"""The hold model of `esmsim bench kernel` written for SimPy, for comparison.

Each of 10,000 entities waits an Exp(1) time, 100 times (1,000,000 timeouts). Run with
`make bench-simpy` (creates .venv-bench with the pinned SimPy). Prints the same last line
as esmsim: events=<count> seconds=<wall> events_per_second=<rate>.
"""
import random
import sys
import time

import simpy


def entity(env, n, rng):
    for _ in range(n):
        yield env.timeout(rng.expovariate(1.0))


def run(entities, per_entity, seed):
    env = simpy.Environment()
    rng = random.Random(seed)
    for _ in range(entities):
        env.process(entity(env, per_entity, rng))
    start = time.perf_counter()
    env.run()
    return time.perf_counter() - start


def main():
    entities = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    per_entity = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    best = min(run(entities, per_entity, seed=1) for _ in range(3))
    events = entities * per_entity
    print(f"simpy={simpy.__version__} entities={entities} events_per_entity={per_entity}")
    print(f"events={events} seconds={best:.3f} events_per_second={events / best:.0f}")


if __name__ == "__main__":
    main()
