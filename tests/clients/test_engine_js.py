"""The JS client's engine constants are the Python engine's, generated, never typed twice.

``clients/js/src/engine.js`` is written by ``clients/js/tools/make_engine_js.py``
from ``scoundrel``; after a change to the engine's version, ruleset, deal or
seed rule this fails until the module is generated again.
"""

from .conftest import CLIENT, js_tool


def test_engine_js_is_what_the_python_engine_generates():
    generator = js_tool("make_engine_js")
    assert generator.TARGET.read_text(encoding="utf-8") == generator.engine_module()


def test_no_other_js_module_writes_an_engine_constant_as_a_literal():
    engine = js_tool("make_engine_js").engine_module()
    for source in (CLIENT / "src").glob("*.js"):
        if source.name == "engine.js":
            continue
        text = source.read_text(encoding="utf-8")
        for line in engine.splitlines():
            if line.startswith("export const "):
                value = line.split(" = ", 1)[1].rstrip(";")  # the literal, quotes and all
                assert value not in text, f"{source.name} repeats {value}; import it from engine.js"
