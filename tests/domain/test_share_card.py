"""What a sealed daily's share card says of a player's standing (domain.share_card)."""

from domain.share_card import ShareCard


def card(better_than: int, total: int) -> ShareCard:
    return ShareCard(date="2026-12-03", player="ada", score=-154, better_than=better_than, total=total, streak=1)


def test_the_first_player_of_the_day_is_the_first_to_play_it_not_better_than_0_percent_of_1():
    first = card(0, 1)
    assert first.first and first.standing == "the first to play it"
    assert first.share_text("https://referee.example/s").splitlines()[1] == "Score -154, the first to play it"


def test_later_players_read_the_share_of_the_board_below_them():
    assert not card(0, 2).first
    assert card(0, 2).standing == "better than 0 % of 2 players"
    assert card(63, 41).standing == "better than 63 % of 41 players"
