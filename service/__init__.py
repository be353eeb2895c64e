"""The referee's HTTP API (Flask): ``create_app`` builds one."""

from .app import create_app

__all__ = ["create_app"]
