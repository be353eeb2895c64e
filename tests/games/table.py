"""A player at a dealt game who knows only what the API shows, and a recorder of
everything the API said, to check afterwards against the real deck."""

import random
import re
from dataclasses import dataclass, field

import requests

import scoundrel

CARD = re.compile(r"(?<![A-Za-z0-9])[SCDH](?:1[0-4]|[2-9])(?![0-9])")


def card_of(move: str) -> str:
    return move[:-1] if move[-1] in "wb" else move


def cards_in(text: str) -> set[str]:
    """Every card code written in ``text``."""
    return set(CARD.findall(text))


@dataclass
class Exchange:
    """One response of a game, with the number of moves the game had when it was sent."""

    moves_before: int
    moves_after: int  # the moves the game had once the response was sent
    status: int
    ended: bool  # the response shows the game over
    text: str  # the body, then every header as "name: value"


@dataclass
class Table:
    """Plays one dealt game over HTTP, choosing only among ``legal_moves``."""

    stack: object
    token: str
    rng: random.Random
    exchanges: list[Exchange] = field(default_factory=list)
    game: dict = field(default_factory=dict)

    @property
    def auth(self) -> dict:
        return {"Authorization": f"Bearer {self.token}"}

    def record(self, moves_before: int, response: requests.Response) -> requests.Response:
        headers = "\n".join(f"{name}: {value}" for name, value in response.headers.items())
        body = response.json()
        after = len(body["moves"]) if response.ok and isinstance(body.get("moves"), list) else moves_before
        ended = response.ok and body.get("status") in ("won", "lost", "forfeit")
        self.exchanges.append(Exchange(moves_before, after, response.status_code, ended,
                                       response.text + "\n" + headers))
        return response

    def start(self, **body) -> dict:
        response = self.record(0, self.stack.post("/v1/games", json=body, headers=self.auth))
        assert response.status_code == 201, response.text
        self.game = response.json()
        return self.game

    def send(self, moves: list[str], **extra) -> requests.Response:
        before = len(self.game["moves"])
        return self.record(before, self.stack.post(f"/v1/games/{self.game['id']}/moves",
                                                   json={"moves": moves, **extra}, headers=self.auth))

    def choose(self) -> str:
        legal = self.game["legal_moves"]
        rather = [move for move in legal if move != "flee" and not move.endswith("b")] or legal
        return self.rng.choice(rather if self.rng.random() < 0.8 else legal)

    def step(self, alone: bool = False) -> None:
        """One request: sometimes two moves at once (refused whole past a deal), else one; ``alone``: one move,
        which never ends a game just dealt (R3: 20 health; R1: no monster is worth more than 14, R11, R12)."""
        first = self.choose()
        legal = self.game["legal_moves"]
        others = [move for move in legal if move != "flee" and card_of(move) != card_of(first)]
        if not alone and first != "flee" and others and self.rng.random() < 0.4:
            response = self.send([first, self.rng.choice(others)], expected_moves=len(self.game["moves"]))
            if response.status_code == 200:
                self.game = response.json()
                return
            assert response.status_code == 422, response.text
            assert self.reload()["moves"] == self.game["moves"]  # all or nothing
        response = self.send([first], expected_moves=len(self.game["moves"]))
        assert response.status_code == 200, response.text
        self.game = response.json()

    def reload(self) -> dict:
        response = self.record(len(self.game["moves"]),
                               self.stack.get(f"/v1/games/{self.game['id']}", headers=self.auth))
        assert response.status_code == 200, response.text
        return response.json()

    def play_to_the_end(self) -> dict:
        while self.game["status"] == "playing":
            self.step()
        return self.game


def face_up_after(seed: str, variant: str, moves: list[str]) -> list[set[str]]:
    """For each count k of moves played, every card that had been face up by then (the real deck)."""
    game = scoundrel.Game(seed, variant)
    seen = set(game.state.room)
    history = [set(seen)]
    for move in moves:
        game.play(move)
        seen |= set(game.state.room)
        history.append(set(seen))
    return history


def assert_nothing_shown_early(table: Table, seed: str) -> None:
    """Every response of the game named only cards already face up, and the seed only once it was over."""
    final = table.game
    history = face_up_after(seed, final["variant"], final["moves"])
    for exchange in table.exchanges:
        # a revealed seed is base64url, whose letters can spell a card ("-D4v")
        shown = exchange.text.replace(seed, "") if exchange.ended else exchange.text
        early = cards_in(shown) - history[exchange.moves_after]
        assert not early, f"{sorted(early)} shown after {exchange.moves_after} moves: {exchange.text[:500]}"
        if not exchange.ended:
            assert seed not in exchange.text
