"""The log's tests' stack: the service with a signer key of the module's own (``SCOUNDREL_LOG_KEY``)."""

import pytest

from store.log.notes import Signer
from tests.support.in_process import stack_of

ORIGIN = "referee.test/log"  # the log's name: its checkpoints' origin line


@pytest.fixture(scope="module")
def signer():
    return Signer.generate(ORIGIN)


@pytest.fixture(scope="module")
def stack(request, tmp_path_factory, signer):
    key = tmp_path_factory.mktemp("log") / "log.key"
    key.write_text(signer.text())
    yield from stack_of(request, env={"SCOUNDREL_LOG_KEY": str(key)})
