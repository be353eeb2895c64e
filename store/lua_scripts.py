"""The Lua scripts in ``store/lua``, one script a file, shipped as package data."""

from importlib.resources import files


def lua(name: str) -> str:
    """The source of ``store/lua/<name>.lua``."""
    return (files("store") / "lua" / f"{name}.lua").read_text(encoding="utf-8")
