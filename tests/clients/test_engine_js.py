"""The JS client's engine constants are the Python engine's, generated, never typed twice.

``clients/js/src/engine.js`` is written by ``clients/js/tools/make_engine_js.py``
from ``scoundrel``; after a change to the engine's version, ruleset, deal or
seed rule this fails until the module is generated again.
"""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _generator():
    spec = importlib.util.spec_from_file_location("make_engine_js", ROOT / "clients/js/tools/make_engine_js.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_engine_js_is_what_the_python_engine_generates():
    generator = _generator()
    assert generator.TARGET.read_text(encoding="utf-8") == generator.engine_module()


def test_no_other_js_module_writes_an_engine_constant_as_a_literal():
    engine = _generator().engine_module()
    for source in (ROOT / "clients/js/src").glob("*.js"):
        if source.name == "engine.js":
            continue
        text = source.read_text(encoding="utf-8")
        for line in engine.splitlines():
            if line.startswith("export const "):
                value = line.split(" = ", 1)[1].rstrip(";")  # the literal, quotes and all
                assert value not in text, f"{source.name} repeats {value}; import it from engine.js"
