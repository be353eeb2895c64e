"""The changes to what a board shows besides a run's own, each a leaf appended by the script that makes it:
a sealed deal's seeds revealed at its close, a player's places withheld (a ban, a hiding) and shown again
(the last of them lifted). Each leaf's exact text is checked, and every proof the log then gives by RFC
9162's own verification (``tests.log.rfc9162``). (An erasure's leaf: ``test_log_api``.)"""

from datetime import date

import pytest

from domain.daily_seed import sealed_seed
from domain.dealer import commitment
from domain.run import DEALT, Run
from domain.tournaments import deal_seed
from domain.transparency import SEALED_SEED
from store.base.clock import now_ms
from store.games.day_secrets import sealed_secret
from store.games.dealt import close_sealed_day
from store.log import entries, prove_consistency, prove_inclusion, pseudonyms, publish
from store.log.leaves import LEAVES, leaf_of
from store.log.notes import Signer
from store.sanctions import ban, hide, unban, unhide
from store.tournaments.closing import close_tournament
from store.tournaments.tournaments import create_tournament, tournament_secret
from tests.log import rfc9162

HOUR = 3_600_000


@pytest.fixture
def signer():
    return Signer.generate("referee.test/log")


def _appended(db) -> list[str]:
    """The leaves appended since the list was last emptied, as Redis holds them."""
    return db.redis.lrange(LEAVES, 0, -1)


def _proofs_check(db, signer, earlier: int = 0) -> list[str]:
    """Every leaf moved to the archive and signed: each one's inclusion proof and each earlier tree's
    consistency proof checked with RFC 9162's verification; the leaves' texts."""
    size = publish(db, signer).size
    texts = [entry.leaf for entry in entries(db, 0, size)]
    leaves = [text.encode() for text in texts]
    root = rfc9162.mth(leaves)
    for index, leaf in enumerate(leaves):
        digest, hashes = prove_inclusion(db, index, size)
        assert digest == rfc9162.leaf_hash(leaf)
        assert rfc9162.verify_inclusion(index, size, digest, hashes, root), index
    for first in range(max(1, earlier), size):
        assert rfc9162.verify_consistency(first, size, rfc9162.mth(leaves[:first]), root,
                                          prove_consistency(db, first, size)), first
    return texts


def test_a_sealed_days_close_reveals_its_seed_once_tying_the_commitment_to_it(archived_store_db, signer):
    db = archived_store_db
    day = "2001-02-03"  # a day no other test closes: a process closes a day once
    revealed = sealed_seed(sealed_secret(db), date.fromisoformat(day))
    close_sealed_day(db, day)
    close_sealed_day(db, day)  # a second close (this process's or another's) reveals nothing again
    [leaf] = _appended(db)
    assert '"kind":"reveal"' in leaf and f'"seal":"daily:{day}"' in leaf and f'"seed":"{revealed}"' in leaf
    assert f'"commitment":"{commitment(revealed)}"' in leaf
    assert leaf.startswith('{"commitment":') and leaf.endswith("}")
    assert _proofs_check(db, signer) == [leaf]
    sealed_run = Run("r1", "ada", "classic", revealed, "verified", 7, 1, origin=DEALT, challenge="daily", date=day)
    assert leaf_of(sealed_run, "verdict", 2, "p").seed == SEALED_SEED + commitment(revealed)  # what it reveals


def test_a_tournaments_close_reveals_each_sealed_decks_seed(archived_store_db, signer):
    db = archived_store_db
    at = now_ms()
    tournament = create_tournament(db, starts_ms=at - 2 * HOUR, ends_ms=at - HOUR, title="Gauntlet",
                                   variant="classic", join_required=False, max_entrants=None, max_attempts=2,
                                   deals=2, scoring="best", created_by="mia")
    seeds = [deal_seed(tournament_secret(db, tournament), tournament.id, deal) for deal in (1, 2)]
    close_tournament(db, tournament)
    texts = _proofs_check(db, signer)
    assert [(f'"seal":"tournament:{tournament.id}"' in text, f'"seed":"{seed}"' in text,
             f'"commitment":"{commitment(seed)}"' in text, '"kind":"reveal"' in text)
            for text, seed in zip(texts, seeds, strict=True)] == [(True, True, True, True)] * 2


def test_a_ban_or_hiding_withholds_the_places_once_and_the_last_lift_shows_them(archived_store_db, signer):
    """ivy: a name with letters no hex digit has, so that finding it nowhere in the leaves says her name is not
    there, not that a pseudonym's random digits happen not to spell it."""
    db = archived_store_db
    ban(db, "ivy", "mia", "cheating")
    ban(db, "ivy", "mia", "cheating, again")  # a ban replaced: the places were withheld already
    hide(db, "ivy", "mia", "looking")  # hidden too: still withheld, nothing new to say
    unban(db, "ivy", "mia")  # still hidden: still withheld
    assert len(_appended(db)) == 1
    unhide(db, "ivy", "mia")  # the last lifted: shown again
    hide(db, "bob", "mia", "looking")  # a hiding alone withholds as a ban does
    pseudonym = pseudonyms(db, ["ivy"])["ivy"]
    withheld, shown, hidden = _proofs_check(db, signer)
    time = withheld.split('"time":')[1].rstrip("}")
    assert withheld == f'{{"index":0,"kind":"withhold","player":"{pseudonym}","time":{time}}}'
    assert shown.startswith(f'{{"index":1,"kind":"show","player":"{pseudonym}","time":')
    assert hidden.startswith(f'{{"index":2,"kind":"withhold","player":"{pseudonyms(db, ["bob"])["bob"]}",')
    assert "ivy" not in withheld + shown and "cheating" not in withheld and "looking" not in hidden
