"""``/runs/<id>``: the replay viewer, an HTML page for players and moderators.

Plain HTML, CSS and JavaScript from this package (no build step, no CDN);
the page fetches ``/v1/runs/<id>/replay`` and draws it. An unknown run's
404 page is a refusal, kept by no cache (``site.REFUSED``), as the other
pages' refusals are: the run may be submitted a moment later.
"""

from flask import Blueprint, render_template

from domain.errors import NoSuchRun
from domain.sealing import shown
from store import get_run
from store.sanctions import REPORT_REASONS

from .context import db, revealed
from .par import run_par
from .site import REFUSED

blp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                static_url_path="/assets")


@blp.route("/runs/<run_id>")
def viewer(run_id):
    try:
        run = get_run(db(), run_id)
    except NoSuchRun:
        return render_template("missing.html", run_id=run_id), 404, {"Cache-Control": REFUSED}
    seen = shown(run, revealed)
    return render_template("viewer.html", run=seen, par=run_par(seen), report_reasons=REPORT_REASONS)
