"""The pages' charts, a board's histogram, a player's score history and (at the desk) a dealt game's gaps
between moves, as SVG geometry.

Drawn by a Jinja macro (``templates/charts.html``) from the shapes computed
here, rather than by a charting library, and why: pygal, the well-kept SVG
charting library on the index, always writes a ``<style>`` element and an
inline ``<script>`` into its SVG, which this site's Content-Security-Policy
(no inline script or style) blocks when the chart is part of the page, and
it took about 14 ms to render one 26-bar histogram here, a third of a board
page's budget; leather draws no reference line (the median) and is little
maintained; matplotlib is far heavier still. Charts of a few dozen
rectangles need a scale and a loop: that is all this module is. Colours and
fonts come from ``site.css`` (classes, no ``style`` attributes), so the SVG
passes the CSP and follows the page's theme.
"""

from dataclasses import dataclass

from domain.run import Run
from scoundrel.wording import plural
from store.base import iso_time
from store.boards import Spread

WIDTH, HEIGHT = 640, 200
LEFT, RIGHT, TOP, BOTTOM = 60, 12, 40, 30  # margins for the axis and marker labels
HISTORY_HEIGHT, HISTORY_TOP, HISTORY_BOTTOM = 170, 14, 30  # room for the dates below
MOST_LABELS = 8


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    title: str


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Marker:
    """A vertical line across the plot at ``x`` (the median, or a player's score), labelled
    at height ``label_y`` on the side of the line with more room (``anchor``: SVG's text-anchor).

    A player's marker is labelled with their name and keeps it in ``player`` (and the score in
    ``value``): the server cannot know who reads the page, so ``site.js`` relabels it "you"
    only in the browser of the player signed in under that name.
    """

    x: float
    label: str
    kind: str
    label_y: float
    anchor: str
    player: str = ""
    value: str = ""


@dataclass(frozen=True)
class Histogram:
    bars: list[Bar]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    markers: list[Marker]
    summary: str
    width: int = WIDTH
    height: int = HEIGHT
    plot_top: int = TOP
    plot_bottom: int = HEIGHT - BOTTOM
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT


def number(value: float) -> str:
    """A score or mean as the pages print it: whole numbers bare, a true minus sign."""
    text = f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}".rstrip("0")
    return text.replace("-", "−")


def _label_step(count: int) -> int:
    return max(1, -(-count // MOST_LABELS))


def histogram(spread: Spread, noun: str, looked_up: tuple[str, float] | None = None) -> Histogram | None:
    """The spread's buckets as bars, the median (and ``looked_up``, a player's name and score) marked;
    None if empty. ``noun`` names what the axis counts ("score", "mean").
    """
    if not spread.buckets or spread.median is None:
        return None
    low, high = spread.buckets[0].low, spread.buckets[-1].high
    tallest = max(bucket.count for bucket in spread.buckets) or 1
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(value: float) -> float:
        return round(LEFT + (value - low) / (high - low) * plot_width, 1)

    bars = []
    for bucket in spread.buckets:
        height = round(bucket.count / tallest * plot_height, 1)
        upper = bucket.high - (1 if float(bucket.low).is_integer() and noun == "score" else 0)
        span = number(bucket.low) if upper == bucket.low else f"{number(bucket.low)} to {number(upper)}"
        bars.append(Bar(x_of(bucket.low) + 0.5, TOP + plot_height - height, max(x_of(bucket.high) - x_of(bucket.low)
                        - 1, 0.5), height, f"{noun} {span}: {bucket.count:,} {plural('player', bucket.count)}"))
    step = _label_step(len(spread.buckets))
    x_ticks = [Tick(x_of(bucket.low), number(bucket.low)) for bucket in spread.buckets[::step]]
    x_ticks.append(Tick(x_of(high), number(high)))
    markers = [_marker(x_of(spread.median), f"median {number(spread.median)}", "median", TOP - 4)]
    if looked_up is not None:
        player, score = looked_up
        markers.append(_marker(x_of(score), f"{player} {number(score)}", "mine", TOP - 24, player, number(score)))
    summary = f"{spread.total:,} {plural('player', spread.total)}; the median {noun} is {number(spread.median)}."
    return Histogram(bars, x_ticks, [Tick(TOP + plot_height, "0"), Tick(TOP, f"{tallest:,}")], markers, summary)


def _marker(x: float, label: str, kind: str, label_y: float, player: str = "", value: str = "") -> Marker:
    return Marker(x, label, kind, label_y, "start" if x < WIDTH / 2 else "end", player, value)


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    title: str
    kind: str


@dataclass(frozen=True)
class History:
    points: list[Point]
    line: str
    y_ticks: list[Tick]
    x_ticks: list[Tick]  # the first and the latest run's dates
    zero: float | None
    summary: str
    width: int = WIDTH
    height: int = HISTORY_HEIGHT
    plot_left: int = LEFT
    plot_right: int = WIDTH - RIGHT


def _day(run: Run) -> str:
    """The UTC date the run was submitted on."""
    return (iso_time(run.submitted_ms) or "")[:10]


def history(runs: list[Run]) -> History | None:
    """A player's verified runs, oldest first, as points joined by a line; None without any.

    Each point's ``kind`` is the run's outcome (won, lost), for its colour.
    """
    if not runs:
        return None
    scores = [run.score or 0 for run in runs]
    low, high = min(scores + [0]), max(scores + [0])
    spread = (high - low) or 1
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HISTORY_HEIGHT - HISTORY_TOP - HISTORY_BOTTOM

    def y_of(score: float) -> float:
        return round(HISTORY_TOP + (high - score) / spread * plot_height, 1)

    def x_of(index: int) -> float:
        return round(LEFT + (index + 0.5) / len(runs) * plot_width, 1)

    points = [Point(x_of(index), y_of(score), f"{_day(run)}: {run.outcome}, score {number(score)}",
                    run.outcome or "lost") for index, (run, score) in enumerate(zip(runs, scores, strict=True))]
    ticks = [Tick(y_of(high), number(high)), Tick(y_of(low), number(low))]
    if min(high, -low) / spread > 0.1:  # zero well inside the range: label its line too
        ticks.append(Tick(y_of(0), "0"))
    summary = (f"{len(runs)} verified {plural('run', len(runs))}, oldest first: scores from {number(min(scores))} to "
               f"{number(max(scores))}, the latest {number(scores[-1])}.")
    dates = [Tick(points[0].x, _day(runs[0]))]
    if len(runs) > 1:
        dates.append(Tick(points[-1].x, _day(runs[-1])))
    return History(points, " ".join(f"{point.x},{point.y}" for point in points), ticks, dates, y_of(0), summary)


@dataclass(frozen=True)
class Level(Tick):
    """A horizontal line across a chart at height ``at``, of a ``kind`` (a limit, the median), labelled."""

    kind: str


@dataclass(frozen=True)
class Gaps:
    """A dealt game's gaps between decisions as bars, one a move (a histogram's frame, without its markers),
    across the ``levels`` of the timing flag's limit (the median gap a person stays above) and the game's
    median; its ``summary`` says the figures in words."""

    plot: Histogram
    levels: list[Level]


def gaps(decision_gaps: list[int], median_ms: float, spread: float | None, fast_ms: float, steady_spread: float,
         min_moves: int) -> Gaps | None:
    """The chart of ``decision_gaps`` (ms), or None for a game with none. The scale reaches the fast limit at
    least, so a machine's game shows how far below it every gap lies."""
    if not decision_gaps:
        return None
    top = max(max(decision_gaps), fast_ms * 1.25, 1)
    plot_top, bottom, left, right = TOP, HEIGHT - BOTTOM, LEFT, WIDTH - RIGHT
    step = (right - left) / len(decision_gaps)

    def y(ms: float) -> float:
        return round(bottom - (bottom - plot_top) * ms / top, 1)

    bars = [Bar(round(left + index * step, 1), y(gap), round(max(step - 1, 0.5), 1), round(bottom - y(gap), 1),
                f"move {index + 2}: {gap} ms") for index, gap in enumerate(decision_gaps)]
    levels = [Level(y(fast_ms), f"fast_moves below a median of {number(fast_ms)} ms", "limit"),
              Level(y(median_ms), f"median {number(median_ms)} ms", "median")]
    judged = len(decision_gaps) >= min_moves
    rhythm = "" if spread is None else \
        f"; their spread is {number(round(spread, 3))} (steady_rhythm below {number(steady_spread)})"
    count = len(decision_gaps)
    summary = (f"{count} {plural('gap', count)} between decisions, median {number(median_ms)} ms{rhythm}"
               + ("" if judged else f"; fewer than {min_moves} timed moves: not judged"))
    return Gaps(Histogram(bars, [], [Tick(y(top), f"{number(top)} ms"), Tick(float(bottom), "0")], [], summary),
                levels)
