"""Sign-in with a studio's own tokens: a JWT from a trusted issuer (``SCOUNDREL_JWT_ISSUERS``) acts as the
player linked to its ``sub`` (``store.accounts.links``).

A token is checked against its issuer's keys with PyJWT: a JWKS URL, whose
key set its ``PyJWKClient`` caches (``KEYS_CACHED_SECONDS``) and fetches
again when a token names a key id it does not hold, at most every
``KEYS_COOLDOWN_SECONDS`` (so a studio's new key is found, and a key it
dropped stops working once the set is fetched again), or a shared secret
(HMAC). The algorithm must be of the issuer's
kind, asymmetric for a JWKS, HMAC for a secret, so ``alg: none`` and the
HS/RS confusion (a token signed with a public key as an HMAC secret) are
refused before any signature is checked; and one its key verifies: the
``alg`` the key's JWK declares, else one of the key's kind (RSA's, the
curve's own, EdDSA), so no token names an algorithm its key cannot take. The
token must be for the issuer's audience, unexpired, carry ``sub``, and be
valid for no longer than ``SCOUNDREL_JWT_MAX_LIFETIME`` (from its ``iat``,
and from now): a token that never expires is a stolen one that never does.

Each refusal is a 401 with a ``reason`` code (``SignInRefused``) and no
more: not the key id, not the claims, not what the keys were.
"""

import time
from dataclasses import dataclass, field

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

from schemas.players import registrable
from settings import JwtIssuer

HMAC_ALGORITHMS = ("HS256", "HS384", "HS512")
RSA_ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512")
CURVE_ALGORITHMS = {"secp256r1": "ES256", "secp384r1": "ES384", "secp521r1": "ES512"}  # one a curve (RFC 7518)
KEY_ALGORITHMS = (*RSA_ALGORITHMS, *CURVE_ALGORITHMS.values(), "EdDSA")
LEEWAY_SECONDS = 30  # clocks apart by this much still agree on a token's expiry
KEYS_CACHED_SECONDS = 300  # a JWKS is fetched again at most this often, but for a key id it does not hold
KEYS_TIMEOUT_SECONDS = 5
KEYS_COOLDOWN_SECONDS = 5  # an unknown key id fetches the JWKS again at most this often (a new key is found so)

# Why a token is refused (``SignInRefused.reason``), each a 401.
EXPIRED, WRONG_AUDIENCE, UNKNOWN_ISSUER, UNKNOWN_KEY, BAD_ALGORITHM, TOO_LONG_LIVED, INVALID = (
    "token_expired", "wrong_audience", "unknown_issuer", "unknown_key", "bad_algorithm", "token_too_long_lived",
    "invalid_token")
KEYS_UNAVAILABLE = "keys_unavailable"  # the issuer's JWKS could not be fetched: a 503, the token may be fine
NOT_LINKED = "not_linked"  # a valid token whose account has no player yet: a 403 until one is named

_MESSAGES = {
    EXPIRED: "The token has expired.",
    WRONG_AUDIENCE: "The token is not for this service.",
    UNKNOWN_ISSUER: "The token's issuer is not one this service trusts.",
    UNKNOWN_KEY: "The token is signed with a key its issuer does not publish.",
    BAD_ALGORITHM: "The token's algorithm is not one its issuer signs with, or not its key's.",
    TOO_LONG_LIVED: "The token is valid for longer than this service accepts a token for.",
    INVALID: "The token is not valid.",
    KEYS_UNAVAILABLE: "The issuer's keys could not be fetched just now; try again shortly.",
}


class SignInRefused(Exception):
    """A studio's token refused: ``reason`` says why, in one code; the message says no more."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(_MESSAGES[reason])


@dataclass(frozen=True)
class Account:
    """A studio account a verified token names: its issuer, its ``sub``, and the name its claims give (if the
    issuer names players from a claim, and the claim is a name a player may register: else the player chooses
    one, ``POST /v1/players``), and whether its issuer's ``moderator_claim`` holds ``moderator`` (the desk,
    ``service.desk_sessions``)."""

    issuer: JwtIssuer
    subject: str
    name: str | None
    moderator: bool = False


MODERATOR_ROLE = "moderator"


def holds_role(claim: object) -> bool:
    """Whether a role claim holds ``moderator``: a list of roles, or a string of them separated by spaces
    (as OAuth's ``scope`` is)."""
    if isinstance(claim, str):
        return MODERATOR_ROLE in claim.split()
    return isinstance(claim, list) and MODERATOR_ROLE in claim


def looks_like_jwt(token: str) -> bool:
    """A JWT (three dot-separated parts), not one of the service's own tokens (which hold no dot)."""
    return token.count(".") == 2


@dataclass
class SignIn:
    """The trusted issuers, and a JWKS client each (its keys cached): one per application."""

    issuers: tuple[JwtIssuer, ...]
    max_lifetime: float  # seconds a token may be valid for (``Settings.jwt_max_lifetime``)
    _clients: dict[str, jwt.PyJWKClient] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for issuer in self.issuers:
            if issuer.jwks_url:
                self._clients[issuer.issuer] = jwt.PyJWKClient(
                    issuer.jwks_url, cache_keys=False, cache_jwk_set=True, lifespan=KEYS_CACHED_SECONDS,
                    timeout=KEYS_TIMEOUT_SECONDS, cooldown_duration=KEYS_COOLDOWN_SECONDS)

    def verify(self, token: str) -> Account:
        """The account ``token`` signs in, once its issuer's keys, audience, expiry and lifetime check out;
        ``SignInRefused`` otherwise."""
        try:
            header = jwt.get_unverified_header(token)
            claimed = jwt.decode(token, options={"verify_signature": False})
        except jwt.PyJWTError:
            raise SignInRefused(INVALID) from None
        issuer = next((issuer for issuer in self.issuers if issuer.issuer == claimed.get("iss")), None)
        if issuer is None:
            raise SignInRefused(UNKNOWN_ISSUER)
        algorithm = str(header.get("alg"))
        if algorithm not in (KEY_ALGORITHMS if issuer.jwks_url else HMAC_ALGORITHMS):
            raise SignInRefused(BAD_ALGORITHM)  # alg none; an HMAC signed with a public key
        try:
            claims = jwt.decode(token, self._key(issuer, token, algorithm), algorithms=[algorithm],
                                audience=issuer.audience, issuer=issuer.issuer, leeway=LEEWAY_SECONDS,
                                options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.ExpiredSignatureError:
            raise SignInRefused(EXPIRED) from None
        except jwt.InvalidAudienceError:
            raise SignInRefused(WRONG_AUDIENCE) from None
        except jwt.PyJWTError:
            raise SignInRefused(INVALID) from None
        expires = int(claims["exp"])  # PyJWT has read it (and "iat") as a whole number: an int, a float, a string
        if expires - time.time() > self.max_lifetime + LEEWAY_SECONDS or \
                expires - int(claims.get("iat", expires)) > self.max_lifetime:
            raise SignInRefused(TOO_LONG_LIVED)
        subject = claims["sub"]
        if not isinstance(subject, str) or not subject:
            raise SignInRefused(INVALID)
        named = claims.get(issuer.name_claim) if issuer.name_claim else None
        return Account(issuer, subject, named if isinstance(named, str) and registrable(named) else None,
                       holds_role(claims.get(issuer.moderator_claim) if issuer.moderator_claim else None))

    def _key(self, issuer: JwtIssuer, token: str, algorithm: str):
        """The key that verifies ``token``, signed with ``algorithm``: the issuer's secret, or the key its
        JWKS names by the token's ``kid``, if ``algorithm`` is one that key verifies."""
        if not issuer.jwks_url:
            return issuer.secret
        try:
            jwk = self._clients[issuer.issuer].get_signing_key_from_jwt(token)
        except jwt.PyJWKClientConnectionError:
            raise SignInRefused(KEYS_UNAVAILABLE) from None
        except jwt.PyJWTError:
            raise SignInRefused(UNKNOWN_KEY) from None
        if algorithm not in key_algorithms(jwk):
            raise SignInRefused(BAD_ALGORITHM)  # an ES256 token naming an RSA key; RS512 for a key that says RS256
        return jwk.key


def key_algorithms(jwk: jwt.PyJWK) -> tuple[str, ...]:
    """The algorithms ``jwk`` verifies: those of its kind (RSA's; an elliptic curve's own; EdDSA), and of
    those only the one its ``alg`` declares, if it declares one (PyJWK keeps the JWK as published in
    ``_jwk_data``: it has no public name for a declared ``alg`` apart from the one it guesses)."""
    key = jwk.key
    if isinstance(key, rsa.RSAPublicKey | rsa.RSAPrivateKey):
        kind: tuple[str, ...] = RSA_ALGORITHMS
    elif isinstance(key, ec.EllipticCurvePublicKey | ec.EllipticCurvePrivateKey):
        kind = tuple(filter(None, [CURVE_ALGORITHMS.get(key.curve.name)]))
    elif isinstance(key, ed25519.Ed25519PublicKey | ed25519.Ed25519PrivateKey | ed448.Ed448PublicKey |
                    ed448.Ed448PrivateKey):
        kind = ("EdDSA",)
    else:
        kind = ()
    declared = jwk._jwk_data.get("alg")
    return tuple(algorithm for algorithm in kind if declared in (None, algorithm))
