"""The suite's pool of stacks (``tests.support.stack.StackPool``) keeps an idle stack until it has
cost what starting it again would: about two minutes with the usual sweeps, twenty seconds with very fast
ones.
Stub stacks here: the policy, not the processes."""

import importlib

import pytest


class StubStack:
    def __init__(self, sweep_interval: str | None = None):
        self.extra_env = {"SCOUNDREL_SWEEP_INTERVAL": sweep_interval} if sweep_interval else {}
        self.worker_count, self.job_delay, self.clock_offset = 1, 0.0, 0
        self.stopped = False

    def empty(self) -> bool:
        return True

    def stop(self) -> None:
        self.stopped = True


@pytest.fixture
def stacks():
    """``tests.support.stack``, imported here rather than at the top: this module starts no process, and
    ``tests/conftest.py`` marks a module holding that module as one that does."""
    return importlib.import_module("tests.support.stack")


@pytest.fixture
def clock(monkeypatch, stacks):
    now = [1000.0]
    monkeypatch.setattr(stacks.time, "monotonic", lambda: now[0])
    return now


def test_an_idle_stack_with_fast_sweeps_is_stopped_once_it_has_cost_a_start(tmp_path, clock, stacks):
    pool = stacks.StackPool(tmp_path)
    fast, plain = StubStack(sweep_interval="0.05"), StubStack()
    pool.give_back(fast)
    pool.give_back(plain)
    clock[0] += 15  # about 3.6 % of a core for 15 s: less than the 0.75 s a start costs
    pool.give_back(StubStack(sweep_interval="0.5"))
    assert not fast.stopped
    clock[0] += 15
    pool.take(workers=1, env={"SCOUNDREL_SWEEP_INTERVAL": "0.5"})  # kept: taken, not started
    assert fast.stopped and not plain.stopped
    clock[0] += 60  # with the usual sweeps an idle stack costs under 1 % of a core
    pool.give_back(StubStack(sweep_interval="0.4"))
    assert not plain.stopped and len(pool.idle) == 2


def test_a_stack_taken_again_before_it_is_stale_is_the_one_kept(tmp_path, clock, stacks):
    pool = stacks.StackPool(tmp_path)
    kept = StubStack()
    pool.give_back(kept)
    clock[0] += 90
    assert pool.take() is kept and not kept.stopped and not pool.idle
