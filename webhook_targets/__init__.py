"""Where a webhook may be delivered: its URL read one way for registering, showing and delivering it, and
the addresses it may reach (docs/webhooks.md, "Where webhooks go").

A webhook is a request the service makes on a moderator's word, so it must
not become a way into the service's own network (SSRF): to a cloud's
metadata address, to Redis on loopback, to a private service. Its URL is
parsed once (``parse``): one scheme, host and port, with nothing a parser
could read two ways (credentials, ``user@`` before the host, a backslash) and
nothing that would not be sent (a fragment). A host written as an address, in
any spelling a resolver takes (``2130706433``, ``0x7f.1``, ``0177.0.0.1``,
``[::ffff:127.0.0.1]``), is read as that address, and ``localhost`` as
loopback. The URL registered is the parsed one, written plainly, so what a
moderator is shown is what is delivered to.

Only globally reachable unicast addresses are taken (``refusal``): loopback,
private, link-local, shared, multicast, reserved and unspecified ones are
refused, with an IPv4 address carried in an IPv6 one (mapped, 6to4, NAT64)
judged as itself. ``SCOUNDREL_WEBHOOK_ALLOW`` lists addresses and networks
taken all the same (a receiver on the operator's own network).

A name may resolve elsewhere by the time an event is sent, so a delivery
resolves it again and checks every address it resolves to, then connects to
an address it checked, never resolving the name a second time
(``guarded_handlers``, which the delivery's urllib opener uses).
"""

import http.client
import ipaddress
import re
import socket
import ssl
import urllib.request
from dataclasses import dataclass
from functools import cache, partial
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

SCHEMES = {"http": 80, "https": 443}
MAX_URL = 2048
_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")  # a host name in ASCII (an IDN as punycode)
_LOCALHOST = re.compile(r"(.*\.)?localhost\.?")  # RFC 6761: always loopback, never looked up
_NUMBER = re.compile(r"0x[0-9a-f]*|[0-9]+")  # a label read as a number: decimal, octal (0…) or hexadecimal
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: an IPv4 address in its last 32 bits


class UnusableUrl(ValueError):
    """A webhook URL that cannot be delivered to as written, and why, in words for the moderator."""


class RefusedAddress(OSError):
    """A delivery's host resolved to an address webhooks may not reach: nothing was sent."""


@dataclass(frozen=True)
class WebhookUrl:
    """A webhook URL as it is delivered to. ``address``: the host when written as an address."""

    scheme: str
    host: str
    port: int | None
    target: str  # the path and query sent in the request line
    address: Address | None

    @property
    def text(self) -> str:
        """The URL written plainly: what is stored, shown and delivered to."""
        host = f"[{self.host}]" if isinstance(self.address, ipaddress.IPv6Address) else self.host
        return f"{self.scheme}://{host}{'' if self.port is None else f':{self.port}'}{self.target}"

    @property
    def literal_addresses(self) -> tuple[Address, ...]:
        """The addresses this URL names without a lookup: its address, or loopback for ``localhost``."""
        if self.address is not None:
            return (self.address,)
        if _LOCALHOST.fullmatch(self.host):
            return ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1")
        return ()


def _address(host: str) -> Address | None:
    """The address a host written as one stands for, in any spelling a resolver takes; None for a name.

    As the WHATWG URL standard has it, a host whose last label is a number is an IPv4 address (no
    top-level domain is one), read as ``inet_aton`` and resolvers read it: 2130706433, 0x7f.1,
    0177.0.0.1 and 127.1 are all 127.0.0.1.
    """
    if host.startswith("["):
        try:
            return ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise UnusableUrl("The host in brackets is not an IPv6 address.") from None
    if not _NUMBER.fullmatch(host.rstrip(".").rpartition(".")[2]):
        return None
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host.rstrip(".")))
    except OSError:
        raise UnusableUrl("The host ends in a number but is not an IPv4 address.") from None


def parse(url: str) -> WebhookUrl:
    """The webhook URL ``url`` names, or ``UnusableUrl`` saying why it cannot be delivered to."""
    if len(url) > MAX_URL:
        raise UnusableUrl(f"Longer than {MAX_URL} characters.")
    if any(character.isspace() or not character.isprintable() or not character.isascii() for character in url):
        raise UnusableUrl("Must be ASCII without spaces or control characters (a host name as punycode).")
    if "\\" in url:
        raise UnusableUrl("Must not hold a backslash (parsers read it two ways).")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise UnusableUrl("Not a URL.") from None
    if parts.scheme not in SCHEMES or not parts.netloc:
        raise UnusableUrl("Must be an http:// or https:// URL with a host.")
    if "@" in parts.netloc:
        raise UnusableUrl("Must not hold credentials or anything else before an @ in its host: "
                          "sign-in details are never sent, and the host would be read two ways.")
    if parts.fragment or url.endswith("#"):
        raise UnusableUrl("Must not hold a fragment (#…): it is never sent.")
    host, port_text = _split_host(parts.netloc.lower())
    address = _address(host)
    if address is None and not _NAME.fullmatch(host):
        raise UnusableUrl("The host is not a host name or an address.")
    port = None
    if port_text or parts.netloc.endswith(":"):
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise UnusableUrl("The port must be a number from 1 to 65535.")
        port = None if int(port_text) == SCHEMES[parts.scheme] else int(port_text)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query or url.endswith("?") else "")
    return WebhookUrl(parts.scheme, host if address is None else str(address), port, target, address)


def _split_host(netloc: str) -> tuple[str, str]:
    """``(host, port)`` of an authority without credentials; an IPv6 host keeps its brackets."""
    if netloc.startswith("["):
        end = netloc.find("]")
        if end < 0 or netloc[end + 1:][:1] not in ("", ":"):
            raise UnusableUrl("The host in brackets is not an IPv6 address.")
        return netloc[:end + 1], netloc[end + 2:]
    host, _, port = netloc.partition(":")
    if ":" in port:
        raise UnusableUrl("An IPv6 host must be written in brackets ([::1]).")
    return host, port


def _as_itself(address: Address) -> Address:
    """An IPv4 address carried in an IPv6 one (mapped, 6to4, NAT64), as the IPv4 address it reaches."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return address.ipv4_mapped
        if address.sixtofour is not None:
            return address.sixtofour
        if address in _NAT64:
            return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return address


_KINDS = (("loopback", "a loopback"), ("unspecified", "the unspecified"), ("link_local", "a link-local"),
          ("multicast", "a multicast"), ("reserved", "a reserved"), ("private", "a private"))


def _kind(address: Address) -> str:
    """What an address webhooks may not reach is, with its article: "a loopback", "a private"…"""
    return next((phrase for kind, phrase in _KINDS if getattr(address, f"is_{kind}")), "a non-public")


def refusal(address: Address, allowed: tuple[Network, ...]) -> str | None:
    """Why a webhook may not reach ``address`` (None: it may): only global unicast addresses, and those
    ``allowed`` lists (``SCOUNDREL_WEBHOOK_ALLOW``)."""
    itself = _as_itself(address)
    if any(candidate in network for candidate in {address, itself} for network in allowed
           if candidate.version == network.version):
        return None
    if itself.is_global and not itself.is_multicast:
        return None
    return (f"{address} is {_kind(itself)} address: webhooks are not sent to the service's own network "
            "(an operator allows addresses with SCOUNDREL_WEBHOOK_ALLOW).")


def registration_refusal(url: WebhookUrl, allowed: tuple[Network, ...]) -> str | None:
    """Why a webhook may not be registered with this URL (None: it may), judged without a lookup: the
    address it is written as, or ``localhost``'s. A name is judged again at each delivery."""
    return next((refused for address in url.literal_addresses if (refused := refusal(address, allowed))), None)


def resolved_addresses(host: str, port: int) -> list[Address]:
    """Every address ``host`` resolves to now, for a TCP connection."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(ipaddress.ip_address(str(sockaddr[0]).split("%")[0]) for *_, sockaddr in found))


def checked_addresses(host: str, port: int, allowed: tuple[Network, ...]) -> list[Address]:
    """The addresses ``host`` resolves to, every one of them one a webhook may reach; else
    ``RefusedAddress``, naming the host and what its address is, never the address."""
    addresses = resolved_addresses(host, port)
    for address in addresses:
        if refused := refusal(address, allowed):
            if str(address) == host:
                raise RefusedAddress(refused)
            raise RefusedAddress(f"{host} resolves to {_kind(_as_itself(address))} address: webhooks are not "
                                 "sent to the service's own network (SCOUNDREL_WEBHOOK_ALLOW).")
    return addresses


def _connect_checked(allowed: tuple[Network, ...]):
    """``socket.create_connection`` for a delivery: the name resolved once and checked, then one of the
    checked addresses connected to."""

    def create_connection(host_port, timeout=None, source_address=None, **kwargs):
        host, port = host_port
        failure: OSError | None = None
        for address in checked_addresses(host, port, allowed):
            try:
                return socket.create_connection((str(address), port), timeout, source_address)
            except OSError as error:
                failure = error
        raise failure or OSError(f"{host} resolves to no address")

    return create_connection


class _CheckedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, *args, allowed: tuple[Network, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _connect_checked(allowed)


class _CheckedHTTPSConnection(http.client.HTTPSConnection):
    """Connected to a checked address; its certificate still checked against the URL's host name."""

    def __init__(self, *args, allowed: tuple[Network, ...], **kwargs):
        super().__init__(*args, **kwargs)
        self._create_connection = _connect_checked(allowed)


class _CheckedHTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, allowed: tuple[Network, ...]):
        super().__init__()
        self.allowed = allowed

    def http_open(self, req):
        return self.do_open(partial(_CheckedHTTPConnection, allowed=self.allowed), req)


@cache
def _tls_context() -> ssl.SSLContext:
    """The context of every delivery over https: the system's CA certificates read once a process, not at each
    delivery (some 20 ms of CPU each). A context is safe to share between threads."""
    return ssl.create_default_context()


class _CheckedHTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, allowed: tuple[Network, ...]):
        super().__init__()
        self.allowed, self.context = allowed, _tls_context()

    def https_open(self, req):
        return self.do_open(partial(_CheckedHTTPSConnection, allowed=self.allowed), req, context=self.context)


def guarded_handlers(allowed: tuple[Network, ...]) -> list[urllib.request.BaseHandler]:
    """urllib handlers for http and https that connect only to addresses a webhook may reach, and no proxy
    (a proxy would connect on the service's behalf to whatever it was asked)."""
    return [urllib.request.ProxyHandler({}), _CheckedHTTPHandler(allowed), _CheckedHTTPSHandler(allowed)]
