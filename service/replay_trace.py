"""The replay of a stored run, step by step, as the API and the viewer show it.

Computed on request from the stored seed and moves with the current engine,
whatever the run's status: a pending run can be watched before its worker
gets to it, and a run judged by an older engine shows what this one sees
(``verdict`` is this replay's; ``status`` is the run's stored status).
"""

import scoundrel
from domain.run import Run
from store.base import iso_time


def run_replay(run: Run, move_times: list[int] | None = None) -> dict:
    """``{"run_id", "status", "verdict", "start", "steps", "error", "final", ...}`` for a stored run.

    ``move_times`` (a dealt game's, for moderators) become each move's server time.
    """
    seed, moves = run.seed or "", list(run.moves or ())
    verdict = scoundrel.replay(seed, moves, run.variant, trace=True, forfeit=run.forfeit)
    first = scoundrel.start(scoundrel.deal(seed))
    error = verdict.error.to_dict() if verdict.error else None
    if error is not None:
        index = error["move_index"]
        error["move"] = moves[index] if index < len(moves) else None
    final = None
    if verdict.status == "verified":
        final = {"outcome": verdict.outcome, "score": verdict.score, "health": verdict.health, "moves": verdict.moves}
    return {
        "run_id": run.id,
        "status": run.status,
        "player": run.player,
        "seed": run.seed,
        "variant": run.variant,
        "verdict": verdict.status,
        "start": {"room": list(first.room), "health": first.health, "weapon": first.weapon, "kills": [],
                  "last_kill": None, "dungeon": len(first.dungeon)},
        "steps": [step.to_dict() for step in verdict.steps],
        "error": error,
        "final": final,
        "move_times": [iso_time(ms) for ms in move_times] if move_times is not None else None,
    }
