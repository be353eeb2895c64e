"""``/share/sealed/<date>/<name>``: a player's result of a day's sealed daily, to paste into a chat.

The page carries the Open Graph and Twitter card tags a chat or a social
site reads to unfurl a link, with the card's image (``.png``, drawn by
``share_image``) as ``og:image``, an absolute URL as they require (built
from the request's host and scheme: behind ``SCOUNDREL_TRUSTED_PROXIES``
proxies, the scheme they forward). It shows a player who has a verified
game on the day's sealed board; anyone else's is a 404 page (a date that
is none, a 422 page). Public: no
token, as the board it is read from is public.

Never a card, the seed or a move (``domain.share_card``): the page and the
image may be shown, and are, while the day is on.

**Caching**: the image is a pure function of the card, kept drawn in the
process and sent with an ETag (``304`` to an ``If-None-Match`` that
matches). While the day is on the standing moves as games end:
``public, max-age=60``; once it is over only a moderator's void can move
it: ``public, max-age=86400``. A 404 is ``no-store``.
"""

from datetime import date

from flask import Blueprint, Response, render_template, request, url_for

from domain.daily_seed import DayNotBegun, day_over, parse_day
from domain.share_card import ShareCard
from store.games import share_card

from .context import db
from .players import player_named
from .share_image import HEIGHT, WIDTH, card_png
from .site import REFUSED, Refused

LIVE = "public, max-age=60"
SETTLED = "public, max-age=86400"

blp = Blueprint("share", __name__, template_folder="templates")


def _card(day_text: str, name: str) -> ShareCard:
    """The share card of the player ``name`` (any case) for the day ``day_text``; else a refusal:
    a 422 page for what is not a date, a 404 page for a day to come or a player without a verified
    game on that day's sealed board."""
    try:
        day = parse_day(day_text)
    except DayNotBegun:
        raise Refused(404, f"The day {day_text} has not begun yet (days are UTC).") from None
    except ValueError:
        raise Refused(422, f"{day_text!r} is not a date.", {"day": ["Not a date: YYYY-MM-DD, a day that exists."]}) \
            from None
    player = player_named(name)
    card = None if player is None else share_card(db(), day, player)
    if card is None:
        raise Refused(404, f"{name} has no finished sealed daily game on {day_text}.")
    return card


@blp.errorhandler(Refused)
def _refused(refusal: Refused):
    return render_template("refused.html", refusal=refusal), refusal.status, {"Cache-Control": REFUSED}


def links(card: ShareCard) -> tuple[str, str]:
    """The card's page and image, as absolute URLs."""
    return (url_for("share.page", day=card.date, name=card.player, _external=True),
            url_for("share.image", day=card.date, name=card.player, _external=True))


def _cache_control(card: ShareCard) -> str:
    return SETTLED if day_over(date.fromisoformat(card.date)) else LIVE


@blp.route("/share/sealed/<day>/<name>")
def page(day, name):
    """The share page: the card, its text, and the tags that unfurl it."""
    card = _card(day, name)
    url, image_url = links(card)
    html = render_template("share.html", card=card, url=url, image_url=image_url, width=WIDTH, height=HEIGHT,
                           text=card.share_text(url))
    return html, 200, {"Cache-Control": _cache_control(card)}


@blp.route("/share/sealed/<day>/<name>.png")
def image(day, name):
    """The card as a 1200 x 630 PNG."""
    card = _card(day, name)
    png, etag = card_png(card)
    response = Response(png, mimetype="image/png", headers={"Cache-Control": _cache_control(card)})
    response.set_etag(etag)
    return response.make_conditional(request)
