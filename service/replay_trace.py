"""The replay of a stored run, step by step, as the API and the viewer show it.

Computed on request from the stored seed and moves with the current engine,
whatever the run's status: a pending run can be watched before its worker
gets to it, and a run judged by an older engine shows what this one sees
(``verdict`` is this replay's; ``status`` is the run's stored status).
"""

import scoundrel


def run_replay(run: dict) -> dict:
    """``{"run_id", "status", "verdict", "start", "steps", "error", "final", ...}`` for a stored run view."""
    moves = run["moves"]
    verdict = scoundrel.replay(run["seed"], moves, run["variant"], trace=True)
    first = scoundrel.start(scoundrel.deal(run["seed"]))
    error = verdict.error.to_dict() if verdict.error else None
    if error is not None:
        index = error["move_index"]
        error["move"] = moves[index] if index < len(moves) else None
    final = None
    if verdict.status == "verified":
        final = {"outcome": verdict.outcome, "score": verdict.score, "health": verdict.health, "moves": verdict.moves}
    return {
        "run_id": run["id"],
        "status": run["status"],
        "player": run["player"],
        "seed": run["seed"],
        "variant": run["variant"],
        "verdict": verdict.status,
        "start": {"room": list(first.room), "health": first.health, "weapon": first.weapon, "kills": [],
                  "last_kill": None, "dungeon": len(first.dungeon)},
        "steps": [step.to_dict() for step in verdict.steps],
        "error": error,
        "final": final,
    }
