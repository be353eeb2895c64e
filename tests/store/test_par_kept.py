"""Issue 35: a deal's par as the store keeps it (``store.par.results``): searches' intervals merged, whichever
order they end in, and one worker's search marked at a time."""

from scoundrel.par import Par, par
from store.par.results import begin_search, end_search, keep_par, read_par


def test_nothing_is_kept_of_a_deal_never_searched(store_db):
    assert read_par(store_db, "never", "classic").found is None


def test_two_searches_keep_the_higher_line_and_the_lower_bound_in_either_order(store_db):
    wide, narrow = par("par-3", "classic", positions=50), par("par-3", "classic", positions=3000)
    assert (wide.score, wide.upper) != (narrow.score, narrow.upper)
    for seed, order in (("one", (wide, narrow)), ("two", (narrow, wide))):
        for found in order:
            keep_par(store_db, seed, "classic", found, searched=False)
        kept = read_par(store_db, seed, "classic").found
        assert kept is not None
        assert (kept.score, kept.upper) == (max(wide.score, narrow.score), min(wide.upper, narrow.upper))
        assert kept.line == (narrow if narrow.score >= wide.score else wide).line


def test_a_proven_par_is_exact_and_a_whole_search_ends_its_mark(store_db):
    assert begin_search(store_db, "par-7", "hard", 5) and not begin_search(store_db, "par-7", "hard", 5)
    assert read_par(store_db, "par-7", "hard").searching
    exact = par("par-7", "hard")
    keep_par(store_db, "par-7", "hard", exact, searched=True)
    kept = read_par(store_db, "par-7", "hard")
    assert kept.found == Par(exact.score, True, exact.score, exact.line, exact.positions)
    assert kept.searched and not kept.searching
    assert begin_search(store_db, "par-8", "hard", 5)
    end_search(store_db, "par-8", "hard")
    assert not read_par(store_db, "par-8", "hard").searching
