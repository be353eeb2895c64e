"""What a request needs from the application: the database and the settings."""

from dataclasses import dataclass

from flask import current_app

from store import Database

from .config import Settings


@dataclass
class Referee:
    """The application's long-lived parts, created once in ``create_app``."""

    settings: Settings
    db: Database


def referee() -> Referee:
    return current_app.extensions["referee"]


def db() -> Database:
    return referee().db
