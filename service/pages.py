"""``/runs/<id>``: the replay viewer, an HTML page for players and moderators.

Plain HTML, CSS and JavaScript from this package (no build step, no CDN);
the page fetches ``/v1/runs/<id>/replay`` and draws it.
"""

from flask import Blueprint, render_template

from store import get_run
from store.errors import NoSuchRun

from .context import db
from .sealing import shown

blp = Blueprint("pages", __name__, template_folder="templates", static_folder="static",
                static_url_path="/assets")


@blp.route("/runs/<run_id>")
def viewer(run_id):
    try:
        run = get_run(db(), run_id)
    except NoSuchRun:
        return render_template("missing.html", run_id=run_id), 404
    return render_template("viewer.html", run=shown(run))
