"""``/play``: a dealt game in the browser, for people rather than curl.

The page is the same for everyone: the player's name and token stay in the
browser's storage and every move goes to ``/v1/games`` from the page's
script, so nothing personal is rendered here, and the HTML pages' default
``Cache-Control: no-cache`` (service/security.py) suits it: any cache may
keep it, and asks again before reuse, so a new release shows at once.

A studio may embed the page in its own (``SCOUNDREL_EMBED_ORIGINS``): the
page then takes the studio's token by ``postMessage`` from its parent
(``static/play-embed.js``; the handshake is in docs/integrators.md), keeps it
in memory, and asks ``GET /v1/players/me`` whose it is. The origins it trusts are
in the page (the same for everyone), and only they may frame it
(``service.security``).

The script plays through the JavaScript client exactly as it is published
in ``clients/js/src`` (served at ``/assets/client/``), not a copy of it:
the wheel ships that directory as package data of ``clients.js.src``, next
to this package, so the same path holds in a checkout and an installation.
"""

import functools
import re
from pathlib import Path

from flask import Blueprint, render_template

from .context import referee
from .front_door import RULES

CLIENT_MODULE = Path(__file__).resolve().parents[1] / "clients" / "js" / "src"
CLIENT_URL = "/assets/client"

blp = Blueprint("play", __name__, static_folder=CLIENT_MODULE, static_url_path=CLIENT_URL)




@functools.cache
def last_ruling() -> str:
    """The id of RULES.md's last ruling, read from the file: the page names the rulings a verdict may cite
    as R1 to this one, and a ruling added to RULES.md is named with no change here."""
    numbers = re.findall(r"^- \*\*R(\d+) ", RULES.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return f"R{max(map(int, numbers))}"


@blp.route("/play")
def play():
    return render_template("play.html", embed_origins=referee().settings.embed_origins, last_ruling=last_ruling())

