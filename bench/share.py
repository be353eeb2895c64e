"""Share cards of the sealed daily: the card's PNG drawn, and served again from the cache, over HTTP.

``--players`` players each start today's sealed daily and give it up (a
day counted in their streak, a place on the day's sealed board), then the
requests are timed over HTTP, p50 and p99:

- the card's PNG asked for the first time (one a player: a card not drawn
  yet, so Pillow draws it);
- the same PNG again (the process's cache of drawn cards), and again with
  its ETag (``If-None-Match``: a 304, no body);
- the share page (its Open Graph tags), and ``/v1/players/<name>/streak``.

Goal: p50 under 100 ms for a card drawn, under 5 ms for one cached.

    .venv/bin/python bench/share.py [--players 300] [--requests 1000]
"""

import argparse
import json
import time
from datetime import UTC, datetime

from _harness import Client, Service, latencies_ms, percentiles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()

    stack = Service(workers=1, env={"SCOUNDREL_RATE_LIMIT_TOKEN": "", "SCOUNDREL_RATE_LIMIT_ADDRESS": ""})
    try:
        client = Client(stack.base)
        names = []
        for number in range(args.players):
            name, token = stack.register(f"sharer-{number}")
            auth = {"Authorization": f"Bearer {token}"}
            status, body = client.request("POST", "/v1/games", {"challenge": "daily"}, auth)
            assert status == 201, body[:200]
            game = json.loads(body)
            status, body = client.request("POST", f"/v1/games/{game['id']}/forfeit", None, auth)
            assert status == 200, body[:200]
            names.append(name)
        day = datetime.now(UTC).date().isoformat()
        deadline = time.monotonic() + 120
        while json.loads(client.request("GET", f"/v1/daily/{day}/sealed/leaderboard?limit=1")[1])["total"] < \
                args.players:
            assert time.monotonic() < deadline, "the runs were not verified in time"
            time.sleep(0.2)

        def get(path: str, headers: dict | None = None, expected: int = 200) -> bytes:
            status, body = client.request("GET", path, headers=headers)
            assert status == expected, (path, status)
            return body

        fresh = iter(names)
        drawn = latencies_ms(lambda: get(f"/share/sealed/{day}/{next(fresh)}.png"), len(names))
        image = f"/share/sealed/{day}/{names[0]}.png"
        client.connection.request("GET", image)
        etag = client.connection.getresponse().getheader("ETag")
        client.connection.close()
        cached = latencies_ms(lambda: get(image), args.requests)
        unchanged = latencies_ms(lambda: get(image, {"If-None-Match": etag}, 304), args.requests)
        page = latencies_ms(lambda: get(f"/share/sealed/{day}/{names[0]}"), args.requests)
        streak = latencies_ms(lambda: get(f"/v1/players/{names[0]}/streak"), args.requests)
        print(f"{args.players} players on the day's sealed board; {args.requests} requests each, over HTTP")
        print(f"card PNG, drawn ({len(drawn)} cards):   {percentiles(drawn)}")
        print(f"card PNG, cached:              {percentiles(cached)}")
        print(f"card PNG, If-None-Match (304): {percentiles(unchanged)}")
        print(f"share page:                    {percentiles(page)}")
        print(f"streak:                        {percentiles(streak)}")
    finally:
        stack.stop()


if __name__ == "__main__":
    main()
