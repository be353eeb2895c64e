"""Submissions as text: JSON in, a checked submission or field errors out.

``verify`` and ``replay`` read submissions from files; both go through
here so that text which is not even JSON gets an ``invalid`` verdict shaped
like the schema's own (the ``_schema`` field, as marshmallow names errors
about the whole input), and well-formed JSON meets the very schema the
HTTP API uses.
"""

import json

import scoundrel
from schemas import load_submission

WHOLE_INPUT = "_schema"  # marshmallow's key for errors that concern no single field
SHAPE = '{"seed", "moves", "variant"}'  # a submission, as the messages name it


def load_json_submission(text: str) -> tuple[dict | None, dict | None]:
    """``(submission, None)`` for a well-formed JSON submission, ``(None, errors)`` otherwise."""
    if not text.strip():
        return None, {WHOLE_INPUT: [f"Blank line: expected a JSON object {SHAPE}."]}
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as error:
        return None, {WHOLE_INPUT: [f"Not valid JSON: {error.msg} at column {error.colno}."]}
    except RecursionError:
        return None, {WHOLE_INPUT: ["Not valid JSON: nested too deeply."]}
    except ValueError as error:  # e.g. an integer literal past Python's digit limit
        return None, {WHOLE_INPUT: [f"Not valid JSON: {error}."]}
    if not isinstance(payload, dict):
        return None, {WHOLE_INPUT: [f"Not a submission: expected a JSON object {SHAPE}, got {_kind(payload)}."]}
    return load_submission(payload)


def _kind(payload: object) -> str:
    """What JSON value ``payload`` is, in words: ``a list``, ``null``, ``a string``…"""
    if payload is None:
        return "null"
    if isinstance(payload, bool):
        return "true" if payload else "false"
    if isinstance(payload, list):
        return "a list"
    return "a string" if isinstance(payload, str) else "a number"


def judge(submission: dict) -> scoundrel.Verdict:
    """Replay a submission the schema accepted."""
    try:
        return scoundrel.replay(submission["seed"], submission["moves"], submission["variant"])
    except scoundrel.InvalidSubmission as invalid:  # the engine's own guard; the schema should catch it first
        return scoundrel.Verdict.invalid(invalid.errors)


def verdict_for_line(line: bytes) -> dict:
    """The verdict JSON (as a dict) for one line of JSON Lines input; never raises on bad input."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        not_text = {WHOLE_INPUT: [f"Not UTF-8 text: bad byte at offset {error.start}."]}
        return scoundrel.Verdict.invalid(not_text).to_dict()
    submission, errors = load_json_submission(text)
    if errors:
        return scoundrel.Verdict.invalid(errors).to_dict()
    assert submission is not None  # no errors: the schema loaded it
    return judge(submission).to_dict()
