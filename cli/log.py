"""``scoundrel log``: the public log's signer key, a copy of the log, and rebuilding the boards from it.

``keygen FILE`` writes a new signer key (``SCOUNDREL_LOG_KEY`` names the
file) and prints its verifier key. ``export FILE`` writes a copy of the log
as the service answers for it: its checkpoints and leaves, the runs it ends
verified (a hundred a request, ``/v1/runs?ids=``) and the live boards (read
through the service's own views, on the store the settings name, no server
needed). ``verify`` checks a copy, from
a running service (``--from URL``) or a file, with ``verification.log_audit``:
one line per problem, status 1 if any.
"""

import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace

from .connecting import add_operator_options, settings_for

DEFAULT_NAME = "scoundrel-referee"
PAGE = 1000  # leaves a request (``/v1/log/entries``' most)
RUNS = 100  # runs a request (``/v1/runs?ids=``' most)

Get = Callable[[str], tuple[int, str]]  # a path's status and body


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "log", help="the public log: make its key, export it, rebuild the boards from it",
        description="The public log of every verdict, void and restore (docs/transparency.md).")
    commands = parser.add_subparsers(dest="log_command", required=True, metavar="{keygen,export,verify}")
    keygen = commands.add_parser(
        "keygen", help="write a new signer key to FILE and print its verifier key",
        description="Write a new Ed25519 signer key to FILE (readable by its owner alone; an existing FILE is "
                    "left alone) for SCOUNDREL_LOG_KEY, and print its verifier key, the one the service "
                    "publishes at /v1/log/key: <name>+<key id>+<base64 key>.")
    keygen.add_argument("file", help="where to write the key (never over an existing file)")
    keygen.add_argument("--name", default=DEFAULT_NAME,
                        help=f"the log's name: its checkpoints' origin line (default: {DEFAULT_NAME})")
    keygen.set_defaults(func=run_keygen)
    export = commands.add_parser(
        "export", help="write a copy of the log, its runs and the live boards to FILE",
        description="Write the log as the service serves it (its key, every checkpoint, every leaf, each "
                    "checkpoint's consistency proof with the last), the runs it ends verified and the live "
                    "boards they count on, to FILE as JSON, for scoundrel log verify FILE.")
    export.add_argument("file", help="where to write the copy (JSON)")
    add_operator_options(export)
    export.set_defaults(func=run_export)
    verify = commands.add_parser(
        "verify", help="check the log and rebuild the boards from it",
        description="Check every checkpoint's signature and its consistency with the last, every leaf, replay "
                    "every run the log ends verified whose seed is public, rebuild the boards those runs count "
                    "on and compare them with the live ones. One line per difference; status 1 if any.")
    verify.add_argument("file", nargs="?", help="a copy scoundrel log export wrote")
    verify.add_argument("--from", dest="url", metavar="URL", help="a running service's address")
    verify.add_argument("--key", help="the verifier key to trust (default: the one the copy or service gives)")
    verify.set_defaults(func=run_verify)


def run_keygen(args) -> int:
    from store.log import NoteError, Signer

    try:
        signer = Signer.generate(args.name)
    except NoteError as error:
        print(f"scoundrel log keygen: {error}", file=sys.stderr)
        return 2
    try:
        descriptor = os.open(args.file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        print(f"scoundrel log keygen: {args.file} exists; a key is never overwritten", file=sys.stderr)
        return 1
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(signer.text() + "\n")
    print(signer.verifier.text())
    return 0


def collect(get: Get, key: str | None = None):
    """A copy of the log through ``get``: what ``verification.log_audit`` checks."""
    from domain.transparency import parse_checkpoint
    from store.log import open_note, parse_verifier
    from verification.log_audit import LogCopy, logged_boards, read_log, replayable, skipped_boards

    if key is None:
        status, key = get("/v1/log/key")
        if status != 200:
            raise LookupError("the service publishes no log key (/v1/log/key)")
    notes: list[str] = []
    while True:
        body = _answer(get, f"/v1/log/checkpoints?offset={len(notes)}&limit=100")
        page = json.loads(body)["checkpoints"] if body is not None else []
        notes += page
        if len(page) < 100:
            break
    verifier = parse_verifier(key)
    sizes = []
    for note in notes:
        try:
            sizes.append(parse_checkpoint(open_note(note, verifier)).size)
        except ValueError:
            continue  # named by the audit
    last = max(sizes, default=0)
    entries: list[dict] = []
    while len(entries) < last:
        body = _answer(get, f"/v1/log/entries?start={len(entries)}&end={min(last, len(entries) + PAGE)}")
        page = json.loads(body)["entries"] if body is not None else []
        if not page:
            break
        entries += page
    consistency = {}
    for size in sizes:
        if 0 < size < last:
            body = _answer(get, f"/v1/log/proof/consistency?first={size}&second={last}")
            if body is not None:
                consistency[str(size)] = json.loads(body)["hashes"]
    body = _answer(get, "/v1/seasons")
    copy = LogCopy(key.strip(), notes, entries, consistency,
                   season=json.loads(body)["current"]["id"] if body is not None else "")
    state = read_log(copy)
    wanted = [run_id for run_id, leaf in state.runs.items() if replayable(leaf, state)]
    for first in range(0, len(wanted), RUNS):
        body = _answer(get, f"/v1/runs?ids={','.join(wanted[first:first + RUNS])}")
        for run in json.loads(body)["runs"] if body is not None else []:
            copy.runs[run["id"]] = run
    skipped = skipped_boards(copy, state)
    for path in logged_boards(state):
        if path not in skipped:
            copy.boards[path] = _board(get, path)
    return copy


def _answer(get: Get, path: str) -> str | None:
    """``path``'s body, None for a 404 (what the service does not hold, which the audit names). Any other
    answer (the service failing, a rate limit) ends the copy: a copy missing what the service failed to send
    would have the audit name its absence as the service's doing."""
    status, body = get(path)
    if status == 404:
        return None
    if status != 200:
        raise LookupError(f"{path} answered {status}: the copy would be incomplete")
    return body


def _board(get: Get, path: str) -> list[dict]:
    places: list[dict] = []
    joined = "&" if "?" in path else "?"
    while True:
        body = _answer(get, f"{path}{joined}offset={len(places)}&limit=100")
        page = json.loads(body).get("entries", []) if body is not None else []
        places += page
        if len(page) < 100:
            return places


def _through_views(args) -> Get:
    """The service's own views on the store the settings name, rate limits off: no server needed."""
    from service.app import create_app

    settings = replace(settings_for(args), rate_limit_token="", rate_limit_address="", rate_limit_server_key="")
    client = create_app(settings).test_client()

    def get(path: str) -> tuple[int, str]:
        response = client.get(path)
        return response.status_code, response.get_data(as_text=True)
    return get


def _over_http(url: str) -> Get:
    import requests

    session = requests.Session()

    def get(path: str) -> tuple[int, str]:
        response = session.get(url.rstrip("/") + path, timeout=30)
        return response.status_code, response.text
    return get


def run_export(args) -> int:
    try:
        copy = collect(_through_views(args))
    except LookupError as error:
        print(f"scoundrel log export: {error}", file=sys.stderr)
        return 1
    with open(args.file, "w", encoding="utf-8") as file:
        file.write(json.dumps(copy.to_json()))  # the C encoder: json.dump streams through Python's, 4x the CPU
    print(f"scoundrel log export: {len(copy.entries)} leaves, {len(copy.checkpoints)} checkpoints, "
          f"{len(copy.runs)} runs to {args.file}")
    return 0


def run_verify(args) -> int:
    from verification.log_audit import LogCopy, audit, read_log, skipped_boards

    if bool(args.file) == bool(args.url):
        print("scoundrel log verify: give a FILE or --from URL (one of them)", file=sys.stderr)
        return 2
    if args.url:
        import requests

        from store.log import NoteError

        try:
            copy = collect(_over_http(args.url), args.key)
        except (requests.RequestException, LookupError, NoteError, ValueError) as error:
            print(f"scoundrel log verify: {args.url}: {str(error).splitlines()[0]}", file=sys.stderr)
            return 1
    else:
        with open(args.file, encoding="utf-8") as file:
            copy = LogCopy.from_json(json.load(file))
        if args.key:
            copy.key = args.key.strip()
    state = read_log(copy)
    for path, why in sorted(skipped_boards(copy, state).items()):
        print(f"skipped {path}: {why}", file=sys.stderr)
    problems = audit(copy, state)
    for problem in problems:
        print(problem)
    verdict = f"{len(problems)} problem(s)" if problems else "the boards are what the log says"
    print(f"scoundrel log verify: {len(copy.entries)} leaves, {len(copy.checkpoints)} checkpoints, "
          f"{len(copy.runs)} runs replayed: {verdict}", file=sys.stderr)
    return 1 if problems else 0
