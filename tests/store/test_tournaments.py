"""Issue 34: tournaments in the store (``store.tournaments``) on a throwaway Redis: listing by state, joining,
starting games under every rule (window, entrants, attempts, one game in play), racing starts, the sealed
decks, and the close (R19) that forfeits what is in play before anything is shown."""

import threading
from dataclasses import replace

import pytest

import scoundrel
from domain.game import FORFEIT, PLAYING, game_run_id
from domain.tournaments import (
    ATTEMPTS_USED,
    FULL,
    GAME_IN_PLAY,
    NO_SUCH_DEAL,
    NOT_JOINED,
    NOT_STARTED,
    TOURNAMENT_ENDED,
    Tournament,
    TournamentRefusal,
    attempt_deal,
    attempts_left,
    deal_seed,
)
from store.base import keys
from store.base.clock import now_ms
from store.games.dealt import load_game, play_moves
from store.runs.records import load_run
from store.tournaments.closing import close_tournament, tournament_revealed
from store.tournaments.tournaments import (
    create_tournament,
    entry_of,
    join_tournament,
    load_tournament,
    start_tournament_game,
    tournament_secret,
    tournaments_in,
)

HOUR = 3_600_000


def made(db, *, starts: int = -HOUR, ends: int = HOUR, **rules):
    """A tournament starting and ending that many ms from now (running, by default)."""
    at = now_ms()
    fields = {"title": "Gauntlet", "variant": "classic", "join_required": False, "max_entrants": None,
              "max_attempts": 2, "deals": 2, "scoring": "best", "created_by": "mia", **rules}
    return create_tournament(db, starts_ms=at + starts, ends_ms=at + ends, **fields)


def refused(call) -> TournamentRefusal:
    with pytest.raises(TournamentRefusal) as raised:
        call()
    return raised.value


def ended_game(db, game):
    """``game`` given up at once (R18): its run is stored, as a game's end stores it."""
    return play_moves(db, game, [], FORFEIT)


def test_tournaments_are_listed_by_state(store_db):
    upcoming = made(store_db, starts=HOUR, ends=2 * HOUR)
    running = made(store_db)
    ended = made(store_db, starts=-2 * HOUR, ends=-HOUR)
    assert load_tournament(store_db, running.id) == running
    listed = {state: [t.id for t in tournaments_in(store_db, state, 0, 100)[1]]
              for state in ("upcoming", "running", "ended")}
    assert upcoming.id in listed["upcoming"] and upcoming.id not in listed["running"] + listed["ended"]
    assert running.id in listed["running"] and running.id not in listed["upcoming"] + listed["ended"]
    assert ended.id in listed["ended"] and ended.id not in listed["upcoming"] + listed["running"]


def test_joining_is_once_until_the_end_and_up_to_the_cap(store_db):
    capped = made(store_db, starts=HOUR, ends=2 * HOUR, max_entrants=2, join_required=True)
    assert join_tournament(store_db, capped, "ada") is True  # before the start too
    assert join_tournament(store_db, capped, "ada") is False
    assert join_tournament(store_db, capped, "bob") is True
    assert refused(lambda: join_tournament(store_db, capped, "cyd")).reason == FULL
    over = made(store_db, starts=-2 * HOUR, ends=-1)
    assert refused(lambda: join_tournament(store_db, over, "ada")).reason == TOURNAMENT_ENDED


def test_every_rule_refuses_a_start_with_its_reason(store_db):
    soon = made(store_db, starts=HOUR, ends=2 * HOUR)
    assert refused(lambda: start_tournament_game(store_db, soon, "ada", "f" * 64)).reason == NOT_STARTED
    over = made(store_db, starts=-2 * HOUR, ends=-1)
    assert refused(lambda: start_tournament_game(store_db, over, "ada", "f" * 64)).reason == TOURNAMENT_ENDED
    members = made(store_db, join_required=True, max_entrants=1)
    assert refused(lambda: start_tournament_game(store_db, members, "ada", "f" * 64)).reason == NOT_JOINED
    open_one = made(store_db, max_entrants=1)
    start_tournament_game(store_db, open_one, "bob", "f" * 64)  # a first game joins
    assert entry_of(store_db, open_one, "bob").joined
    assert refused(lambda: start_tournament_game(store_db, open_one, "cyd", "f" * 64)).reason == FULL


def test_attempts_go_deal_by_deal_one_game_in_play_at_a_time(store_db):
    gauntlet = made(store_db, deals=2, max_attempts=2)
    first = start_tournament_game(store_db, gauntlet, "ada", "f" * 64)
    assert (first.deal, first.tournament, first.challenge, first.closes_ms) == (
        1, gauntlet.id, "tournament", gauntlet.ends_ms)
    in_play = refused(lambda: start_tournament_game(store_db, gauntlet, "ada", "f" * 64))
    assert (in_play.reason, in_play.game_id) == (GAME_IN_PLAY, first.id)
    deals = [first.deal]
    ended_game(store_db, first)
    for _ in range(3):
        game = start_tournament_game(store_db, gauntlet, "ada", "f" * 64)
        deals.append(game.deal)
        ended_game(store_db, game)
    assert deals == [1, 1, 2, 2]
    assert refused(lambda: start_tournament_game(store_db, gauntlet, "ada", "f" * 64)).reason == ATTEMPTS_USED
    assert entry_of(store_db, gauntlet, "ada").used == [2, 2]
    assert refused(lambda: start_tournament_game(store_db, gauntlet, "bob", "f" * 64, deal=3)).reason == NO_SUCH_DEAL
    assert start_tournament_game(store_db, gauntlet, "bob", "f" * 64, deal=2).deal == 2


def test_a_sealed_deck_is_the_same_for_every_entrant_and_fresh_decks_are_each_players_own(store_db):
    sealed = made(store_db, deals=2)
    ada = start_tournament_game(store_db, sealed, "ada", "a" * 64, deal=2)
    bob = start_tournament_game(store_db, sealed, "bob", "b" * 64, deal=2)
    assert ada.seed == bob.seed == deal_seed(tournament_secret(store_db, sealed), sealed.id, 2)
    assert ada.seed != deal_seed(tournament_secret(store_db, sealed), sealed.id, 1)
    assert scoundrel.is_valid_seed(ada.seed)
    assert ada.seal == bob.seal == f"tournament:{sealed.id}"
    fresh = made(store_db, deals=0, max_attempts=3)
    game = start_tournament_game(store_db, fresh, "ada", "c" * 64)
    assert (game.seed, game.deal, game.seal) == ("c" * 64, 0, None)  # revealed once it ends, as a free game's


def test_racing_starts_never_take_more_attempts_than_allowed(store_db):
    tournament = made(store_db, deals=1, max_attempts=1)
    outcomes: list[str] = []

    def start():
        try:
            outcomes.append(start_tournament_game(store_db, tournament, "ada", "f" * 64).id)
        except TournamentRefusal as refusal:
            outcomes.append(refusal.reason)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    games = [outcome for outcome in outcomes if len(outcome) == 32]
    assert len(games) == 1 and entry_of(store_db, tournament, "ada").used == [1]
    assert set(outcomes) - set(games) <= {GAME_IN_PLAY, ATTEMPTS_USED}


def test_a_tournament_game_ends_as_a_run_that_names_its_tournament(store_db):
    tournament = made(store_db, deals=1)
    game = start_tournament_game(store_db, tournament, "ada", "f" * 64)
    ended = ended_game(store_db, game)
    run = load_run(store_db, ended.run_id)
    assert (run.tournament, run.deal, run.scoring, run.challenge, run.seal) == (
        tournament.id, 1, "best", "tournament", f"tournament:{tournament.id}")


def test_the_close_forfeits_what_is_in_play_before_the_decks_are_shown_r19(store_db):
    tournament = made(store_db, deals=1)
    assert tournament_revealed(store_db, tournament.id) is False
    ada = start_tournament_game(store_db, tournament, "ada", "f" * 64)
    bob = start_tournament_game(store_db, tournament, "bob", "f" * 64)
    ended = replace(tournament, ends_ms=now_ms() - 1)  # its end come: the games' close with it
    for game in (ada, bob):
        store_db.redis.hset(keys.game(game.id), "tournament_ends_ms", ended.ends_ms)
    moved = load_game(store_db, ada.id)
    first = scoundrel.legal_moves(scoundrel.start(scoundrel.deal(moved.seed)), "classic")[0]
    assert refused(lambda: play_moves(store_db, moved, [first], PLAYING)).reason == TOURNAMENT_ENDED
    assert load_game(store_db, ada.id).status == FORFEIT  # a move after the end forfeits instead (R19)
    assert load_game(store_db, bob.id).status == PLAYING
    close_tournament(store_db, ended)
    assert load_game(store_db, bob.id).status == FORFEIT  # the close forfeits what is still in play
    assert store_db.redis.scard(keys.tournament_playing(tournament.id)) == 0
    assert load_run(store_db, game_run_id(bob.id)).outcome is None  # pending: judged by a worker


def test_attempt_deal_takes_the_first_deal_with_an_attempt_left():
    gauntlet = Tournament("1", "G", "classic", 0, 1, False, None, 3, 5, "best", "mia", 0)
    assert attempt_deal(gauntlet, [3, 1, 0, 0, 0], None) == 2
    assert attempt_deal(gauntlet, [3, 1, 0, 0, 0], 4) == 4
    assert attempts_left(gauntlet, [3, 1, 0, 0, 0]) == 11
    with pytest.raises(TournamentRefusal):
        attempt_deal(gauntlet, [3, 3, 3, 3, 3], None)
    fresh = replace(gauntlet, deals=0)
    assert attempt_deal(fresh, [2], None) == 0 and attempts_left(fresh, [2]) == 1
    with pytest.raises(TournamentRefusal):
        attempt_deal(fresh, [2], 1)
