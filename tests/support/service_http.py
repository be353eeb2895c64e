"""What a test asks of the service over HTTP, the same of either stack: the processes' (``stack.Stack``) or
the one in the test's process (``in_process.InProcessStack``)."""

import uuid

import requests


class ServiceHttp:
    """The requests a test sends, given the stack's ``base`` URL, its ``http`` session and its ``until`` (how
    it waits: the workers at work meanwhile, in their processes or in this one)."""

    base: str
    http: requests.Session

    def url(self, path: str) -> str:
        return self.base + path

    def get(self, path: str, **kwargs) -> requests.Response:
        return self.http.get(self.url(path), timeout=10, **kwargs)

    def post(self, path: str, **kwargs) -> requests.Response:
        return self.http.post(self.url(path), timeout=10, **kwargs)

    def register(self, name: str | None = None) -> tuple[str, str]:
        """A new player: ``(name, token)``."""
        name = name or f"p-{uuid.uuid4().hex[:12]}"
        response = self.post("/v1/players", json={"name": name})
        assert response.status_code == 201, response.text
        return name, response.json()["token"]

    def submit(self, token: str, body, headers: dict | None = None) -> requests.Response:
        return self.post("/v1/runs", json=body, headers={"Authorization": f"Bearer {token}", **(headers or {})})

    def wait_final(self, run_id: str, timeout: float = 120.0) -> dict:
        """The run once it is no longer pending: its verdict and its board places are written together.
        ``timeout`` only ends a wait that has failed: on a loaded machine a backlog of runs takes long."""
        return self.until(lambda: (run := self.get(f"/v1/runs/{run_id}").json())["status"] != "pending" and run,
                          f"run {run_id}'s verdict", timeout)
