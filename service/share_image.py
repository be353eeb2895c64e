"""The share card's image: a 1200 × 630 PNG drawn on the server with Pillow.

Pillow is the standard imaging library of Python: wheels for every
platform the service runs on, with FreeType built in, so it draws text and
shapes without a browser, a system library or a font on the machine. The
text is set in the font Pillow ships (``ImageFont.load_default(size=…)``,
FreeType since Pillow 10.1), so the card looks the same everywhere.

1200 × 630 is the size Open Graph and Twitter's ``summary_large_image``
show without cropping. The image is a pure function of the card
(``domain.share_card.ShareCard``): a card drawn once is kept in this
process (``functools.lru_cache``, ``CARDS_KEPT`` of them, about 45 KB
each) and the same card is not drawn again (about 20 ms); its ETag is the
digest of the bytes, so a chat's unfurler asks again cheaply.
"""

import hashlib
import io
from functools import lru_cache
from typing import TYPE_CHECKING

from domain.share_card import ShareCard

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

WIDTH, HEIGHT = 1200, 630
CARDS_KEPT = 256  # drawn cards kept per process: the day's latest sharers, some 12 MB at most
MARGIN = 72
FELT, FELT_DARK, INK, MUTED, GOLD, GREEN = "#14372a", "#0d261d", "#f3efe6", "#a9bdb3", "#e8b64c", "#49b97a"


def _font(size: int) -> "ImageFont.FreeTypeFont | ImageFont.ImageFont":
    from PIL import ImageFont  # imported here: only a process that draws a card needs Pillow

    return ImageFont.load_default(size=size)


def _fitted(draw: "ImageDraw.ImageDraw", text: str, size: int, width: int):
    """The default font at ``size``, or smaller until ``text`` fits in ``width`` (a long name)."""
    while size > 20 and draw.textlength(text, font=_font(size)) > width:
        size -= 4
    return _font(size)


def _draw(card: ShareCard) -> bytes:
    from PIL import Image, ImageDraw  # imported here: only a process that draws a card needs Pillow

    image = Image.new("RGB", (WIDTH, HEIGHT), FELT)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, HEIGHT - 96, WIDTH, HEIGHT), fill=FELT_DARK)
    draw.text((MARGIN, 56), "SCOUNDREL · SEALED DAILY", font=_font(34), fill=GOLD)
    draw.text((WIDTH - MARGIN, 56), card.date, font=_font(34), fill=INK, anchor="ra")
    draw.text((MARGIN, 120), card.player, font=_fitted(draw, card.player, 56, WIDTH - 2 * MARGIN), fill=INK)
    draw.text((MARGIN, 210), "SCORE", font=_font(30), fill=MUTED)
    draw.text((MARGIN, 246), str(card.score), font=_font(150), fill=INK)
    right = WIDTH // 2 + 20
    if card.first:
        draw.text((right, 210), "STANDING", font=_font(30), fill=MUTED)
        draw.text((right, 246), "first", font=_font(96), fill=INK)
        draw.text((right, 356), "to play it", font=_font(30), fill=MUTED)
    else:
        draw.text((right, 210), "BETTER THAN", font=_font(30), fill=MUTED)
        draw.text((right, 246), f"{card.better_than} %", font=_font(96), fill=INK)
        draw.text((right, 356), f"of {card.total} players", font=_font(30), fill=MUTED)
        bar = (right, 404, WIDTH - MARGIN, 428)
        draw.rounded_rectangle(bar, radius=12, fill=FELT_DARK)
        if card.better_than:
            filled = bar[0] + (bar[2] - bar[0]) * card.better_than // 100
            draw.rounded_rectangle((bar[0], bar[1], max(filled, bar[0] + 24), bar[3]), radius=12, fill=GREEN)
    streak = card.streak_line or "streak not known for this day"
    draw.text((MARGIN, HEIGHT - 48), streak[0].upper() + streak[1:], font=_font(40), fill=GOLD, anchor="lm")
    draw.text((WIDTH - MARGIN, HEIGHT - 48), "Scoundrel Referee", font=_font(30), fill=MUTED, anchor="rm")
    out = io.BytesIO()
    image.save(out, format="PNG")  # optimize=True saves 3 % of the bytes at three times the time
    return out.getvalue()


@lru_cache(maxsize=CARDS_KEPT)
def card_png(card: ShareCard) -> tuple[bytes, str]:
    """The card's PNG and its ETag (the bytes' digest), drawn once per process for each card."""
    png = _draw(card)
    return png, hashlib.sha256(png).hexdigest()[:32]
