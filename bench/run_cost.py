"""What a run costs the data's Redis, and verdicts with their board places a second, side by side with another checkout.

N games (distinct seeds, the ``greedy`` strategy) are submitted one by one
with ``POST /v1/runs`` (8 keep-alive threads, P players) to ``scoundrel up``
(one Redis holding the data and RQ's queues) while its W workers are
suspended (RQ's suspension, which the dispatchers honour too: the runs wait
in the intake); then the workers are resumed and timed until they have
logged N verdicts (``verdict recorded``, logged once a verdict and its board
places are written: read from their log, so that waiting sends the measured
Redis nothing). ``INFO commandstats`` before the first submission and after
the last verdict gives every command's calls and microseconds, divided by
N: commands a run, submission to board places, queue included. The
microseconds are the time spent inside commands, so a server the machine
takes off its core mid-command counts the wait: on a shared machine the
lowest round is the nearest to the CPU itself. Redis counts
the commands a script runs under their own names as well as in the script's
call (whose microseconds include theirs), so the commands a run are all of
them, inside scripts or not, and its CPU counts a script's commands once, in
their script's time; ``INFO cpu`` (the server's whole process: reading and
answering requests, its timers) is printed beside it.

With ``--against PATH`` (another checkout, run with its own venv's
``scoundrel``) both services run at once and their rounds alternate, so
that each ratio is of the same machine's state. A last round of each,
untimed, records ``MONITOR`` to split every command into those clients send
and those scripts run, and to name who sends them (the first key's kind:
``rq:…`` is RQ's own bookkeeping, ``LIMITER…`` Flask-Limiter's counters); its
split is applied to the timed rounds' microseconds.

Without rate limits, unless ``--limits`` asks for limits shaped as the
defaults (a second's and a minute's window, by address and by token) but
never reached, so that Flask-Limiter's counters in the same Redis count too.

    .venv/bin/python bench/run_cost.py [--runs 1000] [--players 40] [--workers 2] [--rounds 3] [--limits]
                                       [--against PATH]
"""

import argparse
import collections
import contextlib
import hashlib
import io
import random
import re
import statistics
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis
from rq.suspension import resume, suspend

from _harness import Service, checkout_argument, kind_of, label, submit_all
from scoundrel.strategies import play_game

UNLIMITED = {"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""}
# Limits shaped as the defaults (a second's and a minute's, by address and by token), far above the bench's rate.
LIMITS = {"SCOUNDREL_RATE_LIMIT_TOKEN": "100000/second;6000000/minute",
          "SCOUNDREL_RATE_LIMIT_ADDRESS": "100000/second;6000000/minute"}
# Scripts' own calls: their microseconds include the commands they run.
SCRIPT_CALLS = {"eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro"}
# What the bench itself sends between its two readings: the readings (left out), and RQ's suspension set
# and lifted (taken off).
READINGS = "info"
OWN = {"set": 1, "del": 1}


def games(count: int, first: int) -> list[dict]:
    return [{"seed": f"cost-{n}", "moves": play_game(f"cost-{n}", rng=random.Random(n), strategy="greedy")}
            for n in range(first, first + count)]


@dataclass
class Stats:
    """``INFO commandstats``: command → (calls, microseconds)."""

    commands: dict[str, tuple[int, int]]
    cpu: float  # the server process's CPU seconds (``INFO cpu``)

    @classmethod
    def of(cls, server: redis.Redis) -> "Stats":
        usage = server.info("cpu")
        return cls({name.removeprefix("cmdstat_"): (int(stats["calls"]), int(stats["usec"]))
                    for name, stats in server.info("commandstats").items()},
                   float(usage["used_cpu_user"]) + float(usage["used_cpu_sys"]))

    def since(self, before: "Stats") -> dict[str, tuple[int, int]]:
        """Calls and microseconds of each command between ``before`` and this, the bench's own left out."""
        spent = {}
        for name, (calls, usec) in self.commands.items():
            was_calls, was_usec = before.commands.get(name, (0, 0))
            if name == READINGS:
                continue
            spent[name] = (calls - was_calls - OWN.get(name, 0), usec - was_usec)
        return {name: counts for name, counts in spent.items() if counts[0] > 0}


@dataclass
class Round:
    """One measured round of one service."""

    runs: int
    submitted: float  # submissions/s over HTTP
    verified: float  # verdicts with their board places a second, from the workers' resumption
    spent: dict[str, tuple[int, int]]  # command → (calls, µs)
    process_cpu: float  # the server process's CPU seconds

    def commands(self) -> float:
        return sum(calls for calls, _ in self.spent.values()) / self.runs

    def usec(self, inside: dict[str, float]) -> float:
        """µs of Redis CPU in commands a run: a command's time counted once, in its script's when a
        script ran it (``inside``: the share of each command's calls that scripts made)."""
        return sum(usec * (1 - inside.get(name, 0.0)) for name, (_, usec) in self.spent.items()) / self.runs


@dataclass
class Split:
    """What ``MONITOR`` saw over one round: each command's calls sent by a client and run inside a
    script, and who sent them (the command and its first key's kind), with the commands their
    scripts ran."""

    runs: int
    sent: collections.Counter = field(default_factory=collections.Counter)
    inside: collections.Counter = field(default_factory=collections.Counter)
    senders: collections.Counter = field(default_factory=collections.Counter)
    run_by: collections.Counter = field(default_factory=collections.Counter)  # sender → commands inside
    inner: collections.Counter = field(default_factory=collections.Counter)  # (sender, command) → calls

    def share_inside(self) -> dict[str, float]:
        return {name: self.inside[name] / (self.inside[name] + self.sent[name]) for name in self.inside}


LINE = re.compile(r'^[\d.]+ \[\d+ (?P<client>[^\]]+)\] (?P<args>.*)$')
ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|.)", re.DOTALL)
ESCAPED = {"n": b"\n", "r": b"\r", "t": b"\t", "a": b"\a", "b": b"\b"}

# Each script's SHA → its name, as a checkout's ``store.lua`` loads it (its ``--#include``s in place).
SCRIPT_NAMES = """
import hashlib, importlib.resources
from store.lua import source
for path in importlib.resources.files("store.lua").iterdir():
    if path.name.endswith(".lua") and not path.name.startswith("_"):
        print(hashlib.sha1(source(path.name[:-4]).encode()).hexdigest(), path.name[:-4])
"""


def script_names(checkout: Path | None) -> dict[str, str]:
    """SHA → script name of ``checkout``'s Lua scripts: another checkout's listed by its own Python, this
    one's in this process (a Python started for it would import the store anew: a second of CPU)."""
    if checkout is None:
        listed = io.StringIO()
        with contextlib.redirect_stdout(listed):
            exec(SCRIPT_NAMES, {})
    else:
        listed = io.StringIO(subprocess.run([str(checkout / ".venv" / "bin" / "python"), "-c", SCRIPT_NAMES],
                                            cwd=checkout, capture_output=True, text=True, check=True).stdout)
    return dict(line.split() for line in listed.getvalue().splitlines())


def unescaped(argument: str) -> bytes:
    """An argument as ``MONITOR`` quoted it, back to its bytes."""
    def byte(match: re.Match) -> str:
        escape = match[1]
        value = bytes([int(escape[1:], 16)]) if escape[0] == "x" and len(escape) == 3 else ESCAPED.get(
            escape, escape.encode())
        return value.decode("latin-1")
    return ESCAPE.sub(byte, argument).encode("latin-1")


def sender(args: list[str], names: dict[str, str]) -> str:
    """The command and what it works on: a script call by its script's name, else the command's first
    argument's kind."""
    name = args[0].lower()
    if name in SCRIPT_CALLS:
        sha = hashlib.sha1(unescaped(args[1])).hexdigest() if name.startswith("eval") and "sha" not in name \
            else args[1]
        return f"{name} {names.get(sha, sha[:12])}"
    if name in ("multi", "exec", "ping", "info", "client", "select", "hello", "script"):
        return name
    return f"{name} {kind_of(args[1])}" if len(args) > 1 else name


def monitor(server: redis.Redis, split: Split, names: dict[str, str], stop: threading.Event) -> None:
    """Read ``MONITOR`` into ``split`` until ``stop`` is set and nothing more is waiting; ``names``:
    the scripts' names by SHA."""
    calling = "(no script)"
    with server.monitor() as watching:
        connection = watching.connection
        while not stop.is_set() or connection.can_read(timeout=0.2):
            if not connection.can_read(timeout=0.2):
                continue
            match = LINE.match(_text(connection.read_response()))
            if not match:
                continue
            args = ARGUMENT.findall(match["args"])
            if not args:
                continue
            name = args[0].lower()
            if match["client"] == "lua":
                split.inside[name] += 1
                split.run_by[calling] += 1
                split.inner[calling, name] += 1
            else:
                split.sent[name] += 1
                split.senders[sender(args, names)] += 1
                if name in SCRIPT_CALLS:
                    calling = sender(args, names)


def _text(response) -> str:
    return response.decode(errors="replace") if isinstance(response, bytes) else str(response)


class Side:
    """One checkout's service, its players, and its rounds so far."""

    def __init__(self, checkout: Path | None, args):
        self.name = label(checkout)
        self.script_names = script_names(checkout)
        self.service = Service(workers=args.workers, env=LIMITS if args.limits else UNLIMITED, checkout=checkout)
        self.redis = redis.Redis.from_url(self.service.redis_url)
        self.tokens = [self.service.register(f"cost-{index}")[1] for index in range(args.players)]
        self.verdicts = 0
        self.rounds: list[Round] = []
        self.split: Split | None = None

    def measure(self, bodies: list[dict]) -> Round:
        """Submit ``bodies`` with the workers suspended, then resume them and time them to the last verdict."""
        suspend(self.redis)
        before = Stats.of(self.redis)
        submitted = submit_all(self.service.base, self.tokens, bodies)
        started = time.perf_counter()
        resume(self.redis)
        self.verdicts += len(bodies)
        self.service.wait_for_verdicts(self.verdicts)
        verified = len(bodies) / (time.perf_counter() - started)
        after = Stats.of(self.redis)
        return Round(len(bodies), submitted, verified, after.since(before), after.cpu - before.cpu)

    def monitored(self, bodies: list[dict]) -> Split:
        split = Split(len(bodies))
        stop = threading.Event()
        watcher = threading.Thread(target=monitor, args=(redis.Redis.from_url(self.service.redis_url), split,
                                                                   self.script_names, stop))
        watcher.start()
        time.sleep(0.2)  # MONITOR is on before the first submission
        try:
            self.measure(bodies)
        finally:
            stop.set()
            watcher.join()
        return split

    def stop(self) -> None:
        self.service.stop()


def report(side: Side, top: int) -> None:
    split = side.split
    assert split is not None
    inside = split.share_inside()
    commands = statistics.median(round_.commands() for round_ in side.rounds)
    usec = [round_.usec(inside) for round_ in side.rounds]
    process = [round_.process_cpu / round_.runs * 1e6 for round_ in side.rounds]
    sent = sum(split.sent.values()) / split.runs
    print(f"\n{side.name}: per run, median of {len(side.rounds)} rounds: **{commands:.1f} Redis commands** "
          f"({sent:.1f} sent by clients, the rest run by their scripts), **{statistics.median(usec):.0f} µs of "
          f"Redis CPU** in commands (lowest round {min(usec):.0f}; the server process: median "
          f"{statistics.median(process):.0f}, lowest {min(process):.0f}); "
          f"{statistics.median(r.verified for r in side.rounds):,.0f} verdicts/s, "
          f"{statistics.median(r.submitted for r in side.rounds):,.0f} submissions/s")
    print("  each round: " + "; ".join(f"{r.commands():.1f} commands, {u:.0f} µs, process {c:.0f} µs, "
                                       f"{r.verified:,.0f} verdicts/s" for r, u, c in zip(side.rounds, usec, process,
                                                                                          strict=True)))
    last = side.rounds[-1]
    print("  top commands a run (last timed round; sent by clients / run inside scripts, by MONITOR's round):")
    for name, (calls, spent) in sorted(last.spent.items(), key=lambda item: -item[1][0])[:top]:
        print(f"    {name:<16} {calls / last.runs:6.2f}  ({split.sent[name] / split.runs:5.2f} sent / "
              f"{split.inside[name] / split.runs:5.2f} in scripts)  {spent / last.runs:6.1f} µs")
    print("  who sends them (a script by its name, with the commands it runs; else the first key's kind), a run, "
          "most commands first (a call's own and its script's):")
    for who, calls in sorted(split.senders.items(), key=lambda item: -(item[1] + split.run_by[item[0]]))[:top]:
        inner = ""
        if who in split.run_by:
            each = sorted(((name, count) for (caller, name), count in split.inner.items() if caller == who),
                          key=lambda item: -item[1])
            inner = f", {split.run_by[who] / split.runs:5.2f} commands inside: " + ", ".join(
                f"{name} {count / split.runs:.2f}" for name, count in each)
        print(f"    {who:<36} {calls / split.runs:6.2f}{inner}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--limits", action="store_true",
                        help="rate limits on (as the defaults, but never reached): their counters counted too")
    parser.add_argument("--against", type=checkout_argument, help="another checkout, measured beside this one")
    args = parser.parse_args()

    sides: list[Side] = []
    try:
        for checkout in (None, args.against) if args.against else (None,):
            sides.append(Side(checkout, args))
        for number in range(args.rounds + 1):
            bodies = games(args.runs, number * args.runs)
            # the same games on each side, the sides' order swapped each round
            for side in sides if number % 2 == 0 else sides[::-1]:
                if number < args.rounds:
                    side.rounds.append(side.measure(bodies))
                    print(f"round {number + 1}, {side.name}: {side.rounds[-1].commands():.1f} commands a run, "
                          f"{side.rounds[-1].verified:,.0f} verdicts/s", flush=True)
                else:
                    side.split = side.monitored(bodies)
        print(f"\n{args.runs:,} single submissions a round by {args.players} players, {args.workers} workers, "
              f"one Redis (data and queues)")
        for side in sides:
            report(side, args.top)
        if len(sides) == 2:
            paired = zip(sides[0].rounds, sides[1].rounds, strict=True)
            ratios = [this.verified / other.verified for this, other in paired]
            print(f"\nverdicts/s, {sides[0].name} / {sides[1].name}, each round: "
                  f"{', '.join(f'{ratio:.2f}' for ratio in ratios)}: median **{statistics.median(ratios):.2f}×**")
    finally:
        for side in sides:
            side.stop()


if __name__ == "__main__":
    main()
