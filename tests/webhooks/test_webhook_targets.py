"""Where webhooks may go (``webhook_targets``, docs/webhooks.md "Where webhooks go"): a URL read one way
for registering, showing and delivering; no address of the service's own network, in any spelling, at
registration (over the real API) and again at delivery, on the addresses the name resolves to then (a
stub resolver here: no request leaves 127.0.0.0/8)."""

import ipaddress
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

import webhook_targets
from store.webhooks.hooks import Delivery
from tests.support.games import moderator_token
from tests.support.in_process import stack_of
from webhook_targets import UnusableUrl, parse, registration_refusal
from worker.webhooks import post

INTERNAL = {  # every spelling of an address of the service's own network, and what it is
    "http://169.254.169.254/latest/meta-data/": "link-local",
    "http://[::1]:18901/": "loopback",
    "http://localhost:18901/": "loopback",
    "http://api.localhost/": "loopback",
    "http://0.0.0.0/": "unspecified",
    "http://2130706433/": "loopback",
    "http://0x7f.1/": "loopback",
    "http://0177.0.0.1/": "loopback",
    "http://127.1/": "loopback",
    "http://[::ffff:127.0.0.1]/": "loopback",  # IPv4-mapped
    "http://[::ffff:a9fe:a9fe]/": "link-local",
    "http://[2002:7f00:1::]/": "loopback",  # 6to4
    "http://[64:ff9b::a9fe:a9fe]/": "link-local",  # NAT64
    "http://[::]/": "unspecified",
    "http://10.0.0.8/": "private",
    "http://192.168.1.1/": "private",
    "http://[fd00::1]/": "private",
    "http://[fe80::1]/": "link-local",
    "http://224.0.0.1/": "multicast",
    "http://[ff02::1]/": "multicast",
    "http://240.0.0.1/": "reserved",
    "http://100.64.0.1/": "non-public",  # shared address space (carrier-grade NAT)
}
UNUSABLE = {  # what cannot be delivered as written, or could be read two ways
    "http://user:pass@studio.example/": "credentials",
    "http://127.0.0.1:18901@169.254.169.254/": "credentials",
    "http://@studio.example/": "credentials",
    "http://studio.example\\@169.254.169.254/": "backslash",
    "http://studio.example/#top": "fragment",
    "http://studio.example:0/": "port",
    "http://studio.example:99999/": "port",
    "http://studio.example:http/": "port",
    "http://example.123/": "number",
    "http://[::1/": "Not a URL",
    "http://bücher.example/": "ASCII",
    "ftp://studio.example/": "http",
    "https:///path": "http",
}


@pytest.mark.parametrize("url", INTERNAL)
def test_an_internal_address_is_refused_in_any_spelling(url):
    refused = registration_refusal(parse(url), ())
    assert refused and f" {INTERNAL[url]} address" in refused, refused


@pytest.mark.parametrize("url", UNUSABLE)
def test_a_url_that_cannot_be_delivered_as_written_is_unusable(url):
    with pytest.raises(UnusableUrl, match=UNUSABLE[url]):
        parse(url)


@pytest.mark.parametrize("url,text", [
    ("https://Studio.Example:443/Events?x=1", "https://studio.example/Events?x=1"),
    ("http://studio.example", "http://studio.example/"),
    ("http://8.8.8.8:8080/x", "http://8.8.8.8:8080/x"),
    ("http://0x7f.1:18901/x", "http://127.0.0.1:18901/x"),
    ("http://[2606:4700:0::1111]/", "http://[2606:4700::1111]/"),
])
def test_a_url_is_written_as_it_is_delivered_to(url, text):
    assert parse(url).text == text


def test_an_operator_allows_addresses_and_networks():
    allowed = (ipaddress.ip_network("127.0.0.1"), ipaddress.ip_network("10.1.0.0/16"))
    for url in ("http://127.0.0.1:1/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/", "http://10.1.200.3/"):
        assert registration_refusal(parse(url), allowed) is None, url
    for url in ("http://127.0.0.2/", "http://10.2.0.1/", "http://[::1]/", "http://169.254.169.254/"):
        assert registration_refusal(parse(url), allowed), url
    assert registration_refusal(parse("https://hooks.studio.example/"), ()) is None  # a name: judged at delivery


# registration, over the real API


@pytest.fixture(scope="module")
def registry(request):
    """An API allowing 10.1.0.0/16 but no loopback, whose queue nothing works: nothing is ever delivered from it."""
    yield from stack_of(request, env={"SCOUNDREL_WEBHOOK_ALLOW": "10.1.0.0/16"})


@pytest.fixture(scope="module")
def moderator(registry) -> dict:
    return {"Authorization": f"Bearer {moderator_token(registry)}"}


def _register(stack, moderator, url: str):
    return stack.post("/v1/webhooks", json={"url": url, "events": ["run.verified"]}, headers=moderator)


@pytest.mark.parametrize("url", [*INTERNAL, *UNUSABLE, "http://10.2.0.1/"])
def test_registering_a_webhook_to_an_internal_or_unusable_url_is_a_422_on_the_url(registry, moderator, url):
    answer = _register(registry, moderator, url)
    assert answer.status_code == 422, answer.text
    assert list(answer.json()["errors"]) == ["url"]
    assert registry.get("/v1/webhooks", headers=moderator).json()["total"] == 0


def test_a_webhook_is_registered_and_shown_as_it_is_delivered_to(registry, moderator):
    allowed = _register(registry, moderator, "http://10.1.0.9:8080/hook")
    assert allowed.status_code == 201, allowed.text
    public = _register(registry, moderator, "https://Hooks.Studio.Example:443/events")
    assert public.status_code == 201 and public.json()["url"] == "https://hooks.studio.example/events"
    shown = registry.get(f"/v1/webhooks/{public.json()['id']}", headers=moderator).json()
    assert shown["url"] == "https://hooks.studio.example/events"


def test_the_openapi_document_says_the_url_is_a_uri(registry):
    schema = registry.get("/v1/openapi.json").json()["components"]["schemas"]["WebhookCreate"]
    assert schema["properties"]["url"]["format"] == "uri"
    assert schema["properties"]["url"]["maxLength"] == webhook_targets.MAX_URL


# delivery, in this process, with a stub resolver


class Receiver:
    def __init__(self):
        self.paths: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.paths.append((self.headers["Host"], self.path))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.port = self.server.server_address[1]

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    running = Receiver()
    yield running
    running.close()


@pytest.fixture
def resolver(monkeypatch):
    """Names resolved as this dict says; connections recorded, and refused outside 127.0.0.0/8."""
    names: dict[str, str] = {}
    connected: list[tuple[str, int]] = []

    def getaddrinfo(host, port, *args, **kwargs):
        address = names.get(host, host)
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    real_connection = socket.create_connection

    def create_connection(address, *args, **kwargs):
        connected.append(address)
        assert ipaddress.ip_address(address[0]) in ipaddress.ip_network("127.0.0.0/8"), address
        return real_connection(address, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", create_connection)
    return names, connected


DELIVERY = Delivery("h1", "run.verified", "e1", '{"event":"run.verified"}', 1)
LOOPBACK = (ipaddress.ip_network("127.0.0.1"),)


def test_a_name_resolving_to_an_internal_address_at_delivery_is_refused_unsent(resolver):
    names, connected = resolver
    names["hooks.studio.example"] = "169.254.169.254"  # it resolved elsewhere when it was registered
    attempt = post("http://hooks.studio.example/events", "whsec_x", DELIVERY, 2.0, LOOPBACK)
    assert attempt.status is None and not attempt.delivered
    assert "hooks.studio.example resolves to a link-local address" in attempt.error
    assert "169.254" not in attempt.error  # the moderator is not told what the name resolves to
    assert connected == []


def test_a_name_resolving_to_an_allowed_address_is_delivered_to_that_address(resolver, receiver):
    names, connected = resolver
    names["hooks.studio.example"] = "127.0.0.1"
    attempt = post(f"http://hooks.studio.example:{receiver.port}/events", "whsec_x", DELIVERY, 5.0, LOOPBACK)
    assert attempt.delivered, attempt
    assert connected == [("127.0.0.1", receiver.port)]  # the address checked, not the name looked up again
    assert receiver.paths == [(f"hooks.studio.example:{receiver.port}", "/events")]
    names["hooks.studio.example"] = "::1"  # and later it resolves elsewhere
    again = post(f"http://hooks.studio.example:{receiver.port}/events", "whsec_x", DELIVERY, 5.0, LOOPBACK)
    assert "resolves to a loopback address" in again.error and len(connected) == 1


def test_a_url_stored_with_credentials_or_two_hosts_is_not_delivered(resolver, receiver):
    _, connected = resolver
    for url in (f"http://user:pass@127.0.0.1:{receiver.port}/", f"http://127.0.0.1:{receiver.port}@127.0.0.2/"):
        attempt = post(url, "whsec_x", DELIVERY, 2.0, LOOPBACK)
        assert attempt.error.startswith("not delivered: Must not hold credentials"), attempt
    assert connected == [] and receiver.paths == []
