"""Configuration, read from the environment in this one place.

Every process reads it: the API (``service.app``), the workers
(``worker``) and every ``scoundrel`` command (``cli``); nothing else reads
an environment variable of the service. It is a top-level package of its
own, with no imports beyond the standard library, platformdirs and the
``limits`` library's parser of a rate limit (loaded only when one is set),
so a light command (``scoundrel deal``) loads neither Flask nor Redis to
read it.

Every setting is checked here, as it is read: a value that cannot be used
stops every process and command at start with one line (``SettingsError``)
naming the variable and what it should be, rather than falling back to
something else or failing at its first use.

Every setting has a documented default (docs/configuration.md), so the
service runs with none set; tests pass a ``Settings`` of their own.

Which Redis: ``REDIS_URL`` when set; else the one ``scoundrel up`` is
running on the data directory, whose URL it leaves in ``REDIS_URL_FILE``
there (its port changes at every start); else the default. Every process
and command resolves it here, so they all find the same Redis.
"""

import ipaddress
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

from domain.numerals import is_ascii_number
from domain.rewards import Band, table_from

DEFAULT_DATA_DIR = platformdirs.user_data_dir("scoundrel-referee")
SEASONS = ("monthly", "weekly")  # ``season``'s choices (``domain.seasons.Schedule``)
REDIS_URL_FILE = "redis-url"  # in the data directory, while ``scoundrel up`` runs its private Redis there


class SettingsError(ValueError):
    """A setting that cannot be used, named with what it should be (``scoundrel`` prints it as one line)."""


def _env_int(name: str, default: int, least: int = 0, most: int | None = None) -> int:
    """A whole number from ``least`` to ``most``; empty or unset: ``default``."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    try:
        number = int(value)
    except ValueError:
        raise SettingsError(f"{name}={value!r} is not a whole number") from None
    if number < least or (most is not None and number > most):
        raise SettingsError(f"{name}={number} is " + (f"below {least}" if number < least else f"above {most}"))
    return number


def _env_float(name: str, default: float, *, zero: bool = False) -> float:
    """A finite number above 0 (or 0 itself, when ``zero`` means something); empty or unset: ``default``.
    Every such setting is a length of time or a threshold: ``nan``, ``inf`` and below 0 mean nothing."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    try:
        number = float(value)
    except ValueError:
        raise SettingsError(f"{name}={value!r} is not a number") from None
    if not math.isfinite(number):
        raise SettingsError(f"{name}={value!r} is not a finite number")
    if number < 0 or (number == 0 and not zero):
        raise SettingsError(f"{name}={value!r} is not a number " + ("of 0 or more" if zero else "above 0"))
    return number


def _env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name) or default
    if value not in choices:
        raise SettingsError(f"{name}={value!r} is not one of {', '.join(choices)}")
    return value


def _env_seconds(name: str, default: tuple[float, ...]) -> tuple[float, ...]:
    """A comma-separated list of seconds (``10,60,300``); empty or unset: ``default``."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    try:
        seconds = tuple(float(part) for part in value.split(","))
    except ValueError:
        raise SettingsError(f"{name}={value!r} is not a comma-separated list of seconds") from None
    if any(second < 0 for second in seconds):
        raise SettingsError(f"{name}={value!r} has a negative delay")
    return seconds


def _env_networks(name: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """A comma-separated list of addresses and networks (``127.0.0.1,10.1.0.0/16,fd00::/8``); unset: none."""
    value = os.environ.get(name, "")
    networks = []
    for part in filter(None, (part.strip() for part in value.split(","))):
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise SettingsError(f"{name}={value!r}: {part!r} is neither an address nor a network") from None
    return tuple(networks)


_HOST = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin(text: str) -> str | None:
    """``text`` as a browser names an origin (``event.origin``: the scheme and host in lower case, a default port
    left out), or None if it is not just ``http(s)://HOST[:PORT]``."""
    try:
        parts = urlsplit(text)
        port = parts.port
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{ipaddress.IPv6Address(host)}]"
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or text.partition("://")[2] != parts.netloc or "@" in parts.netloc \
            or parts.netloc.endswith(":") or not (host.startswith("[") or _HOST.fullmatch(host)):
        return None
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, _DEFAULT_PORTS[scheme]) else "")


def _env_origins(name: str) -> tuple[str, ...]:
    """A comma-separated list of web origins (``https://studio.example,https://play.studio.example:8443``), each
    as a browser names it; unset: none. Anything else is refused: they go into a page's
    Content-Security-Policy, where a space or a ``;`` would be a source or a directive of its own."""
    value = os.environ.get(name, "")
    origins = []
    for part in filter(None, (part.strip() for part in value.split(","))):
        origin = _origin(part)
        if origin is None:
            raise SettingsError(f"{name}={value!r}: {part!r} is not an origin: http(s)://HOST or "
                                f"http(s)://HOST:PORT, with nothing after it (no path, not even a /)")
        origins.append(origin)
    return tuple(dict.fromkeys(origins))


@dataclass(frozen=True)
class JwtIssuer:
    """A studio whose own tokens sign players in (``SCOUNDREL_JWT_ISSUERS``): its ``iss`` and the ``aud`` its
    tokens must carry, its keys (a JWKS URL, fetched and cached; or a shared ``secret``, for HMAC), and the
    claim that names a new player (empty: the player chooses a name once, ``POST /v1/players``), and the claim
    whose holding ``moderator`` signs its holder in at the moderators' desk (empty: none of its tokens does)."""

    issuer: str
    audience: str
    jwks_url: str = ""
    secret: str = ""
    name_claim: str = ""
    moderator_claim: str = ""


JWT_ISSUER_FIELDS = {"issuer", "audience", "jwks_url", "secret", "name_claim", "moderator_claim"}


def _env_jwt_issuers(name: str) -> tuple[JwtIssuer, ...]:
    """A JSON list of ``{"issuer", "audience", "jwks_url" or "secret", "name_claim"?, "moderator_claim"?}``;
    unset: none."""
    value = os.environ.get(name, "")
    if not value:
        return ()
    try:
        listed = json.loads(value)
    except ValueError:
        raise SettingsError(f"{name} is not JSON: a list of {{\"issuer\", \"audience\", \"jwks_url\" or "
                            f"\"secret\", \"name_claim\"}}") from None
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        raise SettingsError(f"{name} is not a JSON list of objects")
    issuers = []
    for index, item in enumerate(listed):
        where = f"{name}[{index}]"
        if unknown := set(item) - JWT_ISSUER_FIELDS:
            raise SettingsError(f"{where} has unknown fields: {', '.join(sorted(unknown))}")
        if not all(isinstance(item.get(field, ""), str) for field in JWT_ISSUER_FIELDS):
            raise SettingsError(f"{where}: every field is a string")
        missing = [f"an \"{field}\"" for field in ("issuer", "audience") if not item.get(field)]
        if not item.get("jwks_url") and not item.get("secret"):
            missing.append("a \"jwks_url\" or a \"secret\"")
        if missing:
            raise SettingsError(f"{where} needs {' and '.join(missing)}")
        if item.get("jwks_url") and item.get("secret"):
            raise SettingsError(f"{where} has a \"jwks_url\" and a \"secret\": it needs one of them, not both")
        if item.get("jwks_url") and not item["jwks_url"].startswith(("https://", "http://")):
            raise SettingsError(f"{where}: \"jwks_url\" is not an http(s) URL")
        issuers.append(JwtIssuer(**item))
    if len({issuer.issuer for issuer in issuers}) < len(issuers):
        raise SettingsError(f"{name} names an issuer twice")
    return tuple(issuers)


def _env_rate_limits(name: str, default: str) -> str:
    """Rate limits as Flask-Limiter reads them (``10/second;300/minute``), checked with the ``limits``
    library's own parser; empty: no limit; unset: ``default``. A limit the limiter could not read would
    limit nothing, request after request, so it stops the process instead."""
    value = os.environ.get(name)
    if value is None:
        return default
    if value == "":
        return value
    from limits import parse_many  # here: only a command given a limit of its own loads the library

    try:
        amounts = [limit.amount for limit in parse_many(value)]
    except ValueError:
        raise SettingsError(f"{name}={value!r} is not a list of rate limits such as 10/second;300/minute "
                            f"(empty: no limit)") from None
    if 0 in amounts:
        raise SettingsError(f"{name}={value!r}: a limit of 0 would refuse every request (empty: no limit)")
    return value


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("auto", "json", "text")


def _env_log_level(name: str, default: str) -> str:
    value = (os.environ.get(name) or default).upper()
    if value not in LOG_LEVELS:
        raise SettingsError(f"{name}={os.environ[name]!r} is not one of {', '.join(LOG_LEVELS)}")
    return value


def _env_host(name: str, default: str) -> str:
    """An address or a host name to listen on (``127.0.0.1``, ``::``, ``localhost``); unset: ``default``."""
    value = os.environ.get(name, default)
    try:
        ipaddress.ip_address(value)
    except ValueError:
        if value and not _HOST.fullmatch(value.lower()):
            raise SettingsError(f"{name}={value!r} is neither an address nor a host name") from None
    return value


def _env_cors_origins(name: str) -> str:
    """``*``, or a comma-separated list of origins (as ``_env_origins`` reads them); unset: none."""
    value = os.environ.get(name, "")
    for part in filter(None, (part.strip() for part in value.split(","))):
        if part != "*" and _origin(part) is None:
            raise SettingsError(f"{name}={value!r}: {part!r} is neither * nor an origin: http(s)://HOST or "
                                f"http(s)://HOST:PORT, with nothing after it")
    return value


def _env_access_log(name: str) -> str:
    """``-`` (stderr), or a file in a directory that exists; unset: empty (no access log). gunicorn says only
    "Unable to configure handler 'access'" of a file it cannot open."""
    value = os.environ.get(name, "")
    directory = os.path.dirname(os.path.abspath(os.path.expanduser(value)))
    if value not in ("", "-") and not os.path.isdir(directory):
        raise SettingsError(f"{name}={value!r}: there is no directory {directory} to write it in")
    return value


def _env_key_file(name: str) -> str:
    """A file that exists (the public log's signing key, which ``scoundrel log keygen FILE`` writes), or empty:
    a worker would stop on it only once started, and an API would serve no key."""
    value = os.environ.get(name, "")
    if value and not os.path.isfile(os.path.expanduser(value)):
        raise SettingsError(f"{name}={value!r} is not a file: give the key `scoundrel log keygen FILE` wrote")
    return value


_ARCHIVE_URL = re.compile(r"(?:sqlite|postgresql)(?:\+\w+)?://.*", re.DOTALL)


def _env_archive_url(name: str) -> str:
    """A SQLAlchemy URL of a database the archive is written for, SQLite or PostgreSQL; unset: empty (SQLite in
    the data directory). The message never repeats it: it may hold a password."""
    value = os.environ.get(name, "")
    if value and not _ARCHIVE_URL.fullmatch(value):
        raise SettingsError(f"{name} is not an archive URL: sqlite:///PATH, or "
                            f"postgresql+psycopg://USER:PASSWORD@HOST:PORT/DB")
    return value


def _env_reward_table(name: str) -> tuple[Band, ...]:
    """A JSON reward table (``domain.rewards``); unset: none."""
    value = os.environ.get(name, "")
    if not value:
        return ()
    try:
        return table_from(json.loads(value))
    except ValueError as error:  # JSON's own errors are ValueErrors too
        raise SettingsError(f"{name}: not a reward table: {error}") from None


def _env_tier_rewards(name: str, tiers: tuple[str, ...]) -> tuple[tuple[str, tuple[Band, ...]], ...]:
    """A JSON object: a tier's name → its reward table (``domain.rewards``); unset: no rewards."""
    value = os.environ.get(name, "")
    if not value:
        return ()
    try:
        by_tier = json.loads(value)
    except ValueError:
        raise SettingsError(f"{name} is not JSON: an object of tier names and reward tables") from None
    if not isinstance(by_tier, dict):
        raise SettingsError(f"{name} is not a JSON object of tier names and reward tables")
    if unknown := set(by_tier) - set(tiers):
        raise SettingsError(f"{name} names tiers the leagues do not have: {', '.join(sorted(unknown))}")
    try:
        return tuple((tier, table_from(by_tier[tier])) for tier in tiers if tier in by_tier)
    except ValueError as error:
        raise SettingsError(f"{name}: {error}") from None


def _env_tiers(name: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """A comma-separated list of at least two distinct names, lowest first."""
    value = os.environ.get(name)
    if value in (None, ""):
        return default
    tiers = tuple(tier.strip() for tier in value.split(","))
    if len(tiers) < 2 or "" in tiers or len(set(tiers)) < len(tiers):
        raise SettingsError(f"{name}={value!r} is not two or more distinct names, comma-separated, lowest first")
    return tiers


def _env_blocklist(name: str) -> tuple[str, ...]:
    """The patterns of a blocklist file (a word or a regular expression a line, ``#`` for a comment: the name
    policy, ``domain.names``); unset or empty: none. A file that cannot be read, or a line that is no regular
    expression, stops the process."""
    path = os.environ.get(name, "")
    if not path:
        return ()
    try:
        lines = Path(path).expanduser().read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise SettingsError(f"{name}={path!r} is not a readable text file ({error.__class__.__name__})") from None
    patterns = []
    for number, line in enumerate(lines, 1):
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        try:
            re.compile(pattern)
        except re.error as error:
            raise SettingsError(f"{name}: line {number} is not a word or a regular expression ({error})") from None
        patterns.append(pattern)
    return tuple(patterns)


def _env_flag(name: str) -> bool:
    value = (os.environ.get(name) or "false").lower()
    if value not in ("true", "false", "1", "0", "yes", "no"):
        raise SettingsError(f"{name}={os.environ[name]!r} is neither true nor false")
    return value in ("true", "1", "yes")


def _queue_url() -> str:
    """SCOUNDREL_QUEUE_URL, checked: RQ's queues on a Redis of their own; empty: on the data's Redis."""
    url = os.environ.get("SCOUNDREL_QUEUE_URL", "")
    return _checked_redis_url(url, "SCOUNDREL_QUEUE_URL") if url else ""


def _no_cluster() -> None:
    """The data lives on one Redis (with replicas and Sentinel for failover): a Redis Cluster is refused by
    name, with the way off one, rather than connected to as if it were one Redis."""
    if _env_flag("SCOUNDREL_REDIS_CLUSTER"):
        raise SettingsError("SCOUNDREL_REDIS_CLUSTER is not supported: the data lives on one Redis (failover "
                            "through Sentinel: SCOUNDREL_SENTINELS); unset SCOUNDREL_REDIS_CLUSTER, and move a "
                            "cluster's data with 'scoundrel move-off-cluster CLUSTER_URL'")


def _sentinels() -> tuple[tuple[str, int], ...]:
    """SCOUNDREL_SENTINELS, ``host:port,host:port,...``, checked; with it SCOUNDREL_SENTINEL_MASTER is required."""
    value = os.environ.get("SCOUNDREL_SENTINELS", "")
    if not value:
        return ()
    found = []
    for part in value.split(","):
        host, _, port = part.strip().rpartition(":")
        if not host or not is_ascii_number(port) or not 0 < int(port) < 65536:
            raise SettingsError(f"SCOUNDREL_SENTINELS={value!r}: {part.strip()!r} is not HOST:PORT")
        found.append((host.strip("[]"), int(port)))
    if not os.environ.get("SCOUNDREL_SENTINEL_MASTER"):
        raise SettingsError("SCOUNDREL_SENTINELS is set but SCOUNDREL_SENTINEL_MASTER is not: name the master "
                            "the sentinels watch (their 'sentinel monitor NAME ...')")
    return tuple(found)


def _checked_redis_url(url: str, source: str) -> str:
    """``url``, if redis-py reads it as it is meant: a port it cannot read is a traceback at the first
    connection, and a database that is not a number is quietly database 0. Never repeated: it may hold a
    password."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise SettingsError(f"{source} is not a Redis URL: use redis://HOST:PORT/DB (or rediss://, unix://)")
    parts = urlsplit(url)
    try:
        parts.port  # noqa: B018 (urlsplit reads the port when it is asked for, and raises then)
    except ValueError:
        raise SettingsError(f"{source} is not a Redis URL: its port is not one (1-65535)") from None
    database = parts.path.strip("/") if parts.scheme != "unix" else ""
    if database and not is_ascii_number(database):
        raise SettingsError(f"{source} is not a Redis URL: its database (after the /) is not a number")
    return url


def without_password(url: str) -> str:
    """``url`` with its password, if it has one, shown as ``***``: fit for a message or a log line."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()


def running_redis_url(data_dir: str) -> str | None:
    """The URL ``scoundrel up`` left in ``data_dir`` while it runs, if it does."""
    try:
        return (Path(data_dir).expanduser() / REDIS_URL_FILE).read_text().strip() or None
    except OSError:
        return None


@dataclass(frozen=True)
class Settings:
    redis_url: str = "redis://127.0.0.1:6379/0"
    redis_url_source: str = "the default"  # where redis_url came from, for messages: REDIS_URL, a data directory's file
    data_dir: str = DEFAULT_DATA_DIR  # where ``scoundrel up`` keeps its Redis's data and URL, and the SQLite archive
    # the sentinels watching the data's Redis (SCOUNDREL_SENTINELS); set, they name the master in place of REDIS_URL
    sentinels: tuple[tuple[str, int], ...] = ()
    sentinel_master: str = ""  # the master's name the sentinels know it by (SCOUNDREL_SENTINEL_MASTER)
    queue_url: str = ""  # a Redis of RQ's queues of their own; empty: the data's Redis
    wait_replicas: int = 0  # replicas that must hold a new run before it is acknowledged (WAIT); 0: its master alone
    queue: str = "verify"
    job_timeout: int = 30  # seconds a verification job may run
    daily_secret: str = ""  # empty: a random secret is generated once and kept in Redis
    sealed_secret: str = ""  # the sealed daily's own secret; empty: generated once and kept in Redis
    game_idle: float = 86400.0  # seconds a dealt game may go without a move before the sweeper forfeits it
    redis_timeout: float = 0.75  # seconds before a Redis call gives up (the API then answers 503)
    pending_timeout: float = 60.0  # seconds a run may stay pending before the sweeper re-queues it
    sweep_interval: float = 5.0  # seconds between a worker's sweeps of the pending runs
    intake_window: float = 0.05  # seconds single submissions gather in the intake before they share a job
    worker_ttl: int = 60  # seconds without a heartbeat after which a worker is gone (they beat every third of it)
    rate_limit_token: str = "10/second;300/minute"  # per bearer token; empty: no limit
    rate_limit_address: str = "50/second;1500/minute"  # per client address; empty: no limit
    rate_limit_server_key: str = "100/second;6000/minute"  # per server key (a studio's backend); empty: no limit
    rate_limit_par: str = "6/minute;60/hour"  # par searches an address's API requests queue; empty: no limit
    cors_origins: str = ""  # comma-separated origins allowed by CORS, "*" for any; empty: none
    trusted_proxies: int = 0  # reverse proxies in front whose X-Forwarded-For is believed
    max_body_bytes: int = 4 * 1024 * 1024  # larger request bodies get 413
    log_level: str = "INFO"
    log_format: str = "auto"  # "json", "text", or "auto": text on a terminal, JSON otherwise
    host: str = "127.0.0.1"  # the address ``scoundrel api`` and ``up`` listen on
    port: int = 8000  # the port ``scoundrel api`` and ``up`` listen on
    api_workers: int = 2  # gunicorn processes
    api_connections: int = 1000  # connections each gunicorn process serves at once (gevent: one greenlet each)
    # SCOUNDREL_API_THREADS, still accepted (a whole number) so a deployment setting it starts as before; the
    # API serves connections with greenlets, not threads, so it changes nothing and ``scoundrel api`` says so
    api_threads: int = 0
    access_log: str = ""  # gunicorn's access log ("-" for stderr, or a file); empty: off
    color: bool = True  # False when NO_COLOR is set (https://no-color.org): terminal output stays plain
    archive_url: str = ""  # SQLAlchemy URL of the archive; empty: SQLite in the data directory
    hot_days: float = 30.0  # days a finished run (board place or not) and a seed or season board stay in Redis
    archive_interval: float = 3600.0  # seconds between a worker's retention passes
    name_cool_off_days: float = 30.0  # days an erased player's name may not be registered again
    name_blocklist: tuple[str, ...] = ()  # patterns of names no player may take (``domain.names``); empty: none
    # the weekly leagues (``domain.leagues``): their tiers, lowest first; players in a cohort at most; how
    # many of a cohort go up a tier at the week's end, and as many down
    league_tiers: tuple[str, ...] = ("Bronze", "Silver", "Gold", "Sapphire", "Ruby", "Diamond")
    league_cohort: int = 30
    league_moves: int = 5
    # the leagues' reward tables by tier name (``domain.rewards``), granted at each week's end; empty: none
    league_rewards: tuple[tuple[str, tuple[Band, ...]], ...] = ()
    # the seasons' reward table (``domain.rewards``), granted on each closed season's classic dealt board; empty: none
    season_rewards: tuple[Band, ...] = ()
    schedule_ahead: int = 86400  # seconds ahead a schedule's tournaments are made (``domain.schedules``)
    par_seconds: float = 10.0  # seconds a worker searches a deal's par (``store.par``); it gives way to runs
    flag_fast_ms: float = 250.0  # a dealt game whose median gap between moves is below this is flagged fast_moves
    flag_steady_spread: float = 0.1  # ... whose gaps' robust spread (MAD / median) is below this: steady_rhythm
    flag_min_moves: int = 10  # timed moves a game needs before its timing is judged at all
    flags_kept: int = 10_000  # flags kept in Redis, newest first; older ones are forgotten
    address_secret: str = ""  # key of the address hashes (shared_address); empty: generated once and kept in Redis
    season: str = "monthly"  # how long a season of the dealt boards lasts: "monthly" or "weekly" (UTC, ISO weeks)
    webhook_timeout: float = 10.0  # seconds a webhook delivery attempt may take before it counts as failed
    # seconds before each retry of a failed webhook delivery: 6 tries over about an hour
    webhook_retries: tuple[float, ...] = (10.0, 60.0, 300.0, 900.0, 2700.0)
    # addresses and networks webhooks may reach although they are not public (webhook_targets); empty: none
    webhook_allow: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    # the studios whose own tokens (JWTs) sign players in (``service.sign_in``); empty: none
    jwt_issuers: tuple[JwtIssuer, ...] = ()
    # seconds a studio's token may be valid for at most: from its iat to its exp, and from now to its exp
    jwt_max_lifetime: float = 86400.0
    # the origins of the studios' pages that may frame /play and sign its player in (docs/integrators.md); empty:
    # none, /play is never framed
    embed_origins: tuple[str, ...] = ()
    # the public log (docs/transparency.md): the signer key's file (``scoundrel log keygen``); empty: no
    # checkpoint is signed; and seconds between a worker's checkpoints, at most one an interval
    log_key: str = ""
    log_interval: float = 10.0
    desk_session_hours: float = 8.0  # hours a moderators' desk session lasts without a request (docs/moderation.md)

    def resolved_archive_url(self) -> str:
        """The archive's URL: ``archive_url``, else ``archive.sqlite3`` in the data directory."""
        return self.archive_url or sqlite_archive_url(Path(self.data_dir).expanduser())

    @property
    def name_cool_off_seconds(self) -> int:
        """How long an erased or renamed player's name rests, in whole seconds (``name_cool_off_days``)."""
        return int(self.name_cool_off_days * 86_400)

    @property
    def redis_url_given(self) -> bool:
        """REDIS_URL or the sentinels are set: ``scoundrel up`` uses that Redis and starts none of its own."""
        return self.redis_url_source == "REDIS_URL" or bool(self.sentinels)

    @property
    def data_redis(self) -> str:
        """Which Redis holds the data and why, for a message: the sentinels' primary, or the URL (its password
        hidden) and where it came from."""
        if self.sentinels:
            where = ",".join(f"{host}:{port}" for host, port in self.sentinels)
            return f"the primary {self.sentinel_master!r} of the sentinels at {where} (SCOUNDREL_SENTINELS)"
        return f"{without_password(self.redis_url)} ({self.redis_url_source})"

    @property
    def data_redis_source(self) -> str:
        """Where the data's Redis was named, for a message: the sentinels (named), or REDIS_URL's source."""
        return self.data_redis if self.sentinels else self.redis_url_source

    @classmethod
    def from_env(cls, data_dir: str | None = None) -> "Settings":
        """The settings from the environment; ``data_dir`` (a command's ``--data-dir``) over SCOUNDREL_DATA_DIR."""
        data_dir = data_dir or os.environ.get("SCOUNDREL_DATA_DIR") or DEFAULT_DATA_DIR
        _no_cluster()
        if os.environ.get("REDIS_URL"):
            redis_url, source = os.environ["REDIS_URL"], "REDIS_URL"
        elif running := running_redis_url(data_dir):
            redis_url, source = running, f"{Path(data_dir).expanduser() / REDIS_URL_FILE}, left by scoundrel up"
        else:
            redis_url, source = cls.redis_url, cls.redis_url_source
        return cls(
            redis_url=_checked_redis_url(redis_url, source),
            redis_url_source=source,
            data_dir=data_dir,
            sentinels=_sentinels(),
            sentinel_master=os.environ.get("SCOUNDREL_SENTINEL_MASTER", ""),
            queue_url=_queue_url(),
            wait_replicas=_env_int("SCOUNDREL_WAIT_REPLICAS", cls.wait_replicas),
            queue=os.environ.get("SCOUNDREL_QUEUE") or cls.queue,
            job_timeout=_env_int("SCOUNDREL_JOB_TIMEOUT", cls.job_timeout, least=1),
            daily_secret=os.environ.get("SCOUNDREL_DAILY_SECRET", ""),
            sealed_secret=os.environ.get("SCOUNDREL_SEALED_SECRET", ""),
            game_idle=_env_float("SCOUNDREL_GAME_IDLE", cls.game_idle),
            redis_timeout=_env_float("SCOUNDREL_REDIS_TIMEOUT", cls.redis_timeout),
            pending_timeout=_env_float("SCOUNDREL_PENDING_TIMEOUT", cls.pending_timeout),
            sweep_interval=_env_float("SCOUNDREL_SWEEP_INTERVAL", cls.sweep_interval),
            intake_window=_env_float("SCOUNDREL_INTAKE_WINDOW", cls.intake_window, zero=True),
            worker_ttl=_env_int("SCOUNDREL_WORKER_TTL", cls.worker_ttl, least=1),
            rate_limit_token=_env_rate_limits("SCOUNDREL_RATE_LIMIT_TOKEN", cls.rate_limit_token),
            rate_limit_address=_env_rate_limits("SCOUNDREL_RATE_LIMIT_ADDRESS", cls.rate_limit_address),
            rate_limit_server_key=_env_rate_limits("SCOUNDREL_RATE_LIMIT_SERVER_KEY",
                                                   cls.rate_limit_server_key),
            rate_limit_par=_env_rate_limits("SCOUNDREL_RATE_LIMIT_PAR", cls.rate_limit_par),
            cors_origins=_env_cors_origins("SCOUNDREL_CORS_ORIGINS"),
            trusted_proxies=_env_int("SCOUNDREL_TRUSTED_PROXIES", cls.trusted_proxies),
            max_body_bytes=_env_int("SCOUNDREL_MAX_BODY_BYTES", cls.max_body_bytes, least=1),
            log_level=_env_log_level("SCOUNDREL_LOG_LEVEL", cls.log_level),
            log_format=_env_choice("SCOUNDREL_LOG_FORMAT", cls.log_format, LOG_FORMATS),
            host=_env_host("SCOUNDREL_HOST", cls.host),
            port=_env_int("SCOUNDREL_PORT", cls.port, least=1, most=65535),
            api_workers=_env_int("SCOUNDREL_API_WORKERS", cls.api_workers, least=1),
            api_connections=_env_int("SCOUNDREL_API_CONNECTIONS", cls.api_connections, least=1),
            api_threads=_env_int("SCOUNDREL_API_THREADS", cls.api_threads),
            access_log=_env_access_log("SCOUNDREL_ACCESS_LOG"),
            color="NO_COLOR" not in os.environ,
            archive_url=_env_archive_url("SCOUNDREL_ARCHIVE_URL"),
            hot_days=_env_float("SCOUNDREL_HOT_DAYS", cls.hot_days, zero=True),
            name_cool_off_days=_env_float("SCOUNDREL_NAME_COOL_OFF_DAYS", cls.name_cool_off_days, zero=True),
            name_blocklist=_env_blocklist("SCOUNDREL_NAME_BLOCKLIST"),
            par_seconds=_env_float("SCOUNDREL_PAR_SECONDS", cls.par_seconds),
            league_tiers=_env_tiers("SCOUNDREL_LEAGUE_TIERS", cls.league_tiers),
            league_cohort=_env_int("SCOUNDREL_LEAGUE_COHORT", cls.league_cohort, least=2),
            league_moves=_env_int("SCOUNDREL_LEAGUE_MOVES", cls.league_moves),
            league_rewards=_env_tier_rewards("SCOUNDREL_LEAGUE_REWARDS",
                                             _env_tiers("SCOUNDREL_LEAGUE_TIERS", cls.league_tiers)),
            season_rewards=_env_reward_table("SCOUNDREL_SEASON_REWARDS"),
            schedule_ahead=_env_int("SCOUNDREL_SCHEDULE_AHEAD", cls.schedule_ahead, least=60),
            archive_interval=_env_float("SCOUNDREL_ARCHIVE_INTERVAL", cls.archive_interval),
            flag_fast_ms=_env_float("SCOUNDREL_FLAG_FAST_MS", cls.flag_fast_ms, zero=True),
            flag_steady_spread=_env_float("SCOUNDREL_FLAG_STEADY_SPREAD", cls.flag_steady_spread, zero=True),
            flag_min_moves=_env_int("SCOUNDREL_FLAG_MIN_MOVES", cls.flag_min_moves, least=1),
            flags_kept=_env_int("SCOUNDREL_FLAGS_KEPT", cls.flags_kept, least=1),
            address_secret=os.environ.get("SCOUNDREL_ADDRESS_SECRET", ""),
            season=_env_choice("SCOUNDREL_SEASON", cls.season, SEASONS),
            webhook_timeout=_env_float("SCOUNDREL_WEBHOOK_TIMEOUT", cls.webhook_timeout),
            webhook_retries=_env_seconds("SCOUNDREL_WEBHOOK_RETRIES", cls.webhook_retries),
            webhook_allow=_env_networks("SCOUNDREL_WEBHOOK_ALLOW"),
            jwt_issuers=_env_jwt_issuers("SCOUNDREL_JWT_ISSUERS"),
            jwt_max_lifetime=_env_float("SCOUNDREL_JWT_MAX_LIFETIME", cls.jwt_max_lifetime),
            embed_origins=_env_origins("SCOUNDREL_EMBED_ORIGINS"),
            log_key=_env_key_file("SCOUNDREL_LOG_KEY"),
            log_interval=_env_float("SCOUNDREL_LOG_INTERVAL", cls.log_interval),
            desk_session_hours=_env_float("SCOUNDREL_DESK_SESSION_HOURS", cls.desk_session_hours),
        )


def sqlite_archive_url(directory: str | os.PathLike) -> str:
    """The embedded archive: one SQLite file in ``directory``."""
    return f"sqlite:///{os.path.join(os.fspath(directory), 'archive.sqlite3')}"
