"""Score the hand-written context scenarios (tests/scenarios/scenario_data.py, 65 short conversations in four
languages) under each of the six memory types: a scenario hits when every fact it needs is in the memory block
handed to the model (the system message of the reply model's request, read from a local model server).

Prints `bench: scenarios.<type> hit=<share>` for each type, then `#` lines with each type's share per category
(pinned, speaker, mentioned, newer_wins, kind_decay, budget, relevance, language) and the scenarios it missed.
tests/scenarios/harness.py does the work: one server per scenario with its facts, ages, kinds, pins and the
generated noise (64,900 facts in all), Semantic with every vector from the built-in local model; everything in
one transaction rolled back at the end, so the bench database keeps nothing.

`--smoke`: one scenario of each category, 40 noise facts each.
"""

from __future__ import annotations

import sys
import time

from bench import _harness
from bench._harness import run, setup_django

SMOKE_NOISE = 40


def main(*, smoke: bool) -> None:
    setup_django()
    import logging

    for noisy in ("httpx", "httpcore"):  # one INFO line per model request otherwise
        logging.getLogger(noisy).setLevel(logging.WARNING)
    from django.db import transaction

    from teams.services import team_create
    from tests.model_server import FakeModelServer
    from tests.scenarios.harness import TYPES, next_free_guild, run_all
    from tests.scenarios.scenario_data import CATEGORIES, SCENARIOS

    scenarios = SCENARIOS
    if _harness.SMOKE:
        scenarios = [next(scenario for scenario in SCENARIOS if scenario.category == category)
                     for category in CATEGORIES]
    started = time.perf_counter()
    model = FakeModelServer().start()
    try:
        with transaction.atomic():  # the team too: nothing of the run stays in the database
            team = team_create(name=f"Scenarios {time.strftime('%Y-%m-%d %H:%M:%S')}")
            report = run_all(team, model, scenarios=scenarios,
                             noise_cap=SMOKE_NOISE if smoke else None,
                             first_guild=next_free_guild(950_000_000_000_000_000),
                             progress=lambda line: print(f"# {line}", file=sys.stderr, flush=True))
            transaction.set_rollback(True)
    finally:
        model.stop()
    for line in report.lines():
        print(line, flush=True)
    print(f"# {len(scenarios)} scenarios × {len(TYPES)} types in {time.perf_counter() - started:.0f} s",
          flush=True)


if __name__ == "__main__":
    run(main)
