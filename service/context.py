"""What a request needs from the application: the database and the settings, and sealing's act bound to them."""

from dataclasses import dataclass, field

from flask import current_app

from domain.names import NamePolicy
from settings import Settings
from store import Database, daily_secret
from store.games import address_secret, sealed_secret
from store.tournaments import seal_revealed

from .sign_in import SignIn


@dataclass
class Referee:
    """The application's long-lived parts, created once in ``create_app``."""

    settings: Settings
    db: Database
    _daily_secret: str = field(default="", repr=False)
    _sealed_secret: str = field(default="", repr=False)
    _address_secret: str = field(default="", repr=False)
    # token hash → the player it named when last looked up: a hint that spares a submission the lookup's
    # round trip, never trusted alone (``service.auth.submitter_required``: the store checks it as it writes)
    token_names: dict[str, str] = field(default_factory=dict, repr=False)
    sign_in: SignIn = field(init=False, repr=False)  # the studios' issuers and their cached keys
    name_policy: NamePolicy = field(init=False, repr=False)  # the names no player may take

    def __post_init__(self) -> None:
        self.sign_in = SignIn(self.settings.jwt_issuers, self.settings.jwt_max_lifetime)
        self.name_policy = NamePolicy.of(self.settings.name_blocklist)

    def daily_secret(self) -> str:
        """The configured secret, else the one kept in Redis: read once, it never changes."""
        if not self._daily_secret:
            self._daily_secret = self.settings.daily_secret or daily_secret(self.db)
        return self._daily_secret

    def sealed_secret(self) -> str:
        """The sealed daily's secret, configured or kept in Redis, as ``daily_secret``."""
        if not self._sealed_secret:
            self._sealed_secret = self.settings.sealed_secret or sealed_secret(self.db)
        return self._sealed_secret

    def address_secret(self) -> str:
        """The key of the client address hashes (``service.start_flags``), configured or kept in Redis."""
        if not self._address_secret:
            self._address_secret = self.settings.address_secret or address_secret(self.db)
        return self._address_secret


def referee() -> Referee:
    return current_app.extensions["referee"]


def db() -> Database:
    return referee().db


def allowed_name(name: str) -> str:
    """``name``, if the name policy lets a player take it (``SCOUNDREL_NAME_BLOCKLIST``); else ``NameNotAllowed``
    (422, reason name_not_allowed)."""
    return referee().name_policy.check(name)


def revealed(seal: str) -> bool:
    """Whether the deal ``seal`` seals may be shown now (``domain.sealing``), its close recorded first."""
    return seal_revealed(db(), seal)
