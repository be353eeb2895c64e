"""Issue 44, item 13: pages, static files and JSON go out gzipped to a client that asks (service/compression.py).

Read through the app (these answers touch no store): with ``Accept-Encoding:
gzip`` a page and a static file answer ``Content-Encoding: gzip`` and decode
to the very bytes sent to a client that does not ask; both spellings carry
the same security headers; a file's ETag is its own per spelling and still
answers 304 to a revalidation.
"""

import gzip

import pytest

from tests.support.stores import app_without_redis

GZIP = {"Accept-Encoding": "gzip, deflate, br, zstd"}  # what Chromium sends


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    return app_without_redis(tmp_path_factory.mktemp("compression")).test_client()


@pytest.mark.parametrize("path", ["/play", "/rules", "/assets/play.js", "/assets/site.css", "/v1/openapi.json",
                                  "/v1/docs-assets/swagger-ui-bundle.js"])
def test_an_answer_is_gzipped_for_a_client_that_asks_and_decodes_to_the_same_bytes(client, path):
    plain = client.get(path)
    packed = client.get(path, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data()) / 2
    for answer in (plain, packed):
        assert "Accept-Encoding" in answer.headers["Vary"]
    for header in ("Content-Security-Policy", "X-Content-Type-Options", "Cache-Control", "Content-Type"):
        assert packed.headers.get(header) == plain.headers.get(header), header


def read(answer):
    """The answer, its body read: a file is sent in chunks, and its request ends once they are."""
    answer.get_data()
    return answer


def test_a_static_files_etag_names_its_spelling_and_still_answers_304(client):
    plain = read(client.get("/assets/play.js"))
    packed = read(client.get("/assets/play.js", headers=GZIP))
    assert packed.headers["ETag"] != plain.headers["ETag"]  # other bytes, another strong validator
    assert packed.headers["ETag"].endswith(':gzip"')
    again = read(client.get("/assets/play.js", headers={**GZIP, "If-None-Match": packed.headers["ETag"]}))
    assert again.status_code == 304 and "Content-Encoding" not in again.headers
    assert read(client.get("/assets/play.js", headers={"If-None-Match": plain.headers["ETag"]})).status_code == 304


def test_what_is_small_or_an_error_goes_out_as_it_is(client):
    assert "Content-Encoding" not in read(client.get("/favicon.ico", headers=GZIP)).headers  # 273 bytes
    missing = read(client.get("/assets/nothing.js", headers=GZIP))
    assert missing.status_code == 404 and "Content-Encoding" not in missing.headers
