"""Who is at the moderators' desk: signing in once, the session cookie, and the checks every desk request
passes (docs/moderation.md, "Signing in").

A moderator types their moderator token once, or posts a studio's token whose
issuer names a ``moderator_claim`` holding ``moderator`` (``service.sign_in``);
the browser then holds a session cookie, ``HttpOnly`` and ``SameSite=Strict``,
``Secure`` when the request came over TLS (as the app sees it: behind
``SCOUNDREL_TRUSTED_PROXIES`` proxies, their ``X-Forwarded-Proto``), with the
path ``/desk``: the cookie is sent to the desk's routes only, and nothing
else reads it (the API keeps bearer tokens). The session itself is kept in
Redis (``store.desk``): ended at sign-out, after ``SCOUNDREL_DESK_SESSION_HOURS``
without a request, and at once when its moderator token is revoked.

A state-changing request (every POST) must come from the desk's own origin
(``Origin``, which browsers send with every POST) and, once signed in, carry
the session's CSRF token (the forms' hidden ``csrf``): without either it is
a 403 with a ``reason`` (``MISSING_ORIGIN``…). The desk's pages send
``Referrer-Policy: same-origin``: under the site's ``no-referrer`` a browser
sends ``Origin: null`` with a form's POST, even to its own origin.
"""

import functools
import hmac

from flask import g, jsonify, make_response, redirect, render_template, request, url_for

from store import moderator_for_token
from store.accounts import hash_token
from store.desk import STUDIO, TOKEN, DeskSession, end_session, open_session, session_of

from .auth import signed_in
from .context import db, referee
from .sign_in import SignInRefused

COOKIE = "scoundrel_desk"
COOKIE_PATH = "/desk"
REFERRER_POLICY = "same-origin"

# Why a desk request is refused (each a 403's ``reason``).
MISSING_ORIGIN, FOREIGN_ORIGIN = "origin_missing", "origin_mismatch"
MISSING_CSRF, WRONG_CSRF = "csrf_missing", "csrf_mismatch"
SIGNED_OUT = "signed_out"  # no session: never signed in, signed out, idle too long, or the moderator revoked
_SENTENCES = {
    MISSING_ORIGIN: "This request did not say where it came from (no Origin header); send it from the desk.",
    FOREIGN_ORIGIN: "This request came from another site; the desk takes changes from its own pages only.",
    MISSING_CSRF: "This form had no CSRF token; open the page again and send it from there.",
    WRONG_CSRF: "This form's CSRF token is not this session's; open the page again and send it from there.",
    SIGNED_OUT: "You are not signed in at the desk (or your session has ended); sign in again.",
}


class DeskRefused(Exception):
    """A desk request refused: a 403 with its ``reason``."""

    def __init__(self, reason: str):
        super().__init__(_SENTENCES[reason])
        self.reason = reason


class NotModerator(Exception):
    """A sign-in with a token that makes no moderator: said on the sign-in page (401)."""


def idle_ms() -> int:
    return int(referee().settings.desk_session_hours * 3_600_000)


def moderator_of(token: str) -> tuple[str, str, str]:
    """``(moderator, kind, token hash)`` for a token typed at the sign-in: a moderator token, or a studio's
    token holding the moderator role (its account's name, else its subject, names the moderator in the logs).
    Raises ``NotModerator`` with the sentence the page shows."""
    token = token.strip()
    if signed_in(token):
        try:
            account = referee().sign_in.verify(token)
        except SignInRefused as refused:
            raise NotModerator(f"The studio's token was refused: {refused}") from None
        if not account.moderator:
            raise NotModerator("The studio's token does not give its holder the moderator role.")
        return account.name or account.subject, STUDIO, ""
    name = moderator_for_token(db(), token) if token else None
    if name is None:
        raise NotModerator("That is not a moderator's token.")
    return name, TOKEN, hash_token(token)


def begin(token: str):
    """Sign in: a session for the token's moderator, its cookie on the answer (a redirect to the queue)."""
    moderator, kind, token_hash = moderator_of(token)
    session_id, _ = open_session(db(), moderator, kind, token_hash, idle_ms())
    response = redirect(url_for("desk.queue"), 303)
    response.set_cookie(COOKIE, session_id, path=COOKIE_PATH, httponly=True, samesite="Strict",
                        secure=request.is_secure)
    return response


def finish():
    """Sign out: the session ended server side, the cookie cleared."""
    session_id = request.cookies.get(COOKIE)
    if session_id:
        end_session(db(), session_id)
    response = redirect(url_for("desk.sign_in"), 303)
    response.delete_cookie(COOKIE, path=COOKIE_PATH, httponly=True, samesite="Strict", secure=request.is_secure)
    return response


def current() -> DeskSession | None:
    """This request's desk session, its idle time begun again; None without one."""
    session_id = request.cookies.get(COOKIE)
    return session_of(db(), session_id, idle_ms()) if session_id else None


def check_origin() -> None:
    """A state-changing request comes from the desk's own origin, or is refused (``DeskRefused``)."""
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        raise DeskRefused(MISSING_ORIGIN)
    if origin.rstrip("/") != request.host_url.rstrip("/"):
        raise DeskRefused(FOREIGN_ORIGIN)


def check_csrf(session: DeskSession) -> None:
    sent = request.form.get("csrf", "")
    if not sent:
        raise DeskRefused(MISSING_CSRF)
    if not hmac.compare_digest(sent, session.csrf):
        raise DeskRefused(WRONG_CSRF)


def desk_page(view):
    """A desk route: signed in (``g.desk``, the session), or a page's GET leads to the sign-in; a POST passes
    the Origin and CSRF checks. Every answer carries the desk's Referrer-Policy."""

    @functools.wraps(view)
    def guarded(*args, **kwargs):
        if request.method == "POST":
            check_origin()
        g.desk = current()
        if g.desk is None:
            if request.method == "POST":
                raise DeskRefused(SIGNED_OUT)
            return redirect(url_for("desk.sign_in", ended=1 if request.cookies.get(COOKIE) else None), 303)
        if request.method == "POST":
            check_csrf(g.desk)
        g.moderator = g.desk.moderator
        return view(*args, **kwargs)

    return guarded


def refused(refusal: DeskRefused):
    """A refusal's 403: JSON (``{"message", "reason"}``) for a client asking for it, else a page saying it."""
    if request.accept_mimetypes.best == "application/json":
        response = make_response(jsonify(message=str(refusal), reason=refusal.reason), 403)
    else:
        response = make_response(render_template("desk_refused.html", refusal=refusal), 403)
    response.headers["Cache-Control"] = "no-store"
    return response


def with_policy(response):
    """The desk's answers: never cached, and sent with an ``Origin`` by the browser (``REFERRER_POLICY``)."""
    response.headers["Referrer-Policy"] = REFERRER_POLICY
    response.headers["Cache-Control"] = "no-store"
    return response

