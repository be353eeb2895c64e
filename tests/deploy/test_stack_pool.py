"""The suite's pool of stacks (``tests.support.stack.StackPool``) keeps an idle stack until it has
cost what starting it again would: long for one on one Redis, under a minute for a cluster's with
fast sweeps. Stub stacks here: the policy, not the processes."""

from types import SimpleNamespace

import pytest

from tests.support import stack as stacks


class StubStack:
    def __init__(self, cluster: bool, sweep_interval: str | None = None):
        self.cluster = SimpleNamespace(masters=3, replicas=0) if cluster else None
        self.extra_env = {"SCOUNDREL_SWEEP_INTERVAL": sweep_interval} if sweep_interval else {}
        self.worker_count, self.job_delay, self.clock_offset = 1, 0.0, 0
        self.stopped = False

    def empty(self) -> bool:
        return True

    def stop(self) -> None:
        self.stopped = True


@pytest.fixture
def clock(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(stacks.time, "monotonic", lambda: now[0])
    return now


def test_an_idle_cluster_stack_with_fast_sweeps_is_stopped_once_it_has_cost_a_start(tmp_path, clock):
    pool = stacks.StackPool(tmp_path)
    fast, plain = StubStack(cluster=True, sweep_interval="0.3"), StubStack(cluster=False)
    pool.give_back(fast)
    pool.give_back(plain)
    clock[0] += 30  # about 6 % of a core for 30 s: less than the 3.5 s a start costs
    pool.give_back(StubStack(cluster=False, sweep_interval="0.5"))
    assert not fast.stopped
    clock[0] += 30
    pool.take(workers=1, env={"SCOUNDREL_SWEEP_INTERVAL": "0.5"})  # kept: taken, not started
    assert fast.stopped and not plain.stopped
    clock[0] += 300  # on one Redis with the usual sweeps an idle stack costs under 1 % of a core
    pool.give_back(StubStack(cluster=False, sweep_interval="0.4"))
    assert not plain.stopped and len(pool.idle) == 2


def test_a_stack_taken_again_before_it_is_stale_is_the_one_kept(tmp_path, clock):
    pool = stacks.StackPool(tmp_path)
    kept = StubStack(cluster=True)
    pool.give_back(kept)
    clock[0] += 100  # under the 3.5 s / 1.9 % of a core an idle cluster stack with the usual sweeps costs
    assert pool.take(cluster=(3, 0)) is kept and not kept.stopped and not pool.idle
