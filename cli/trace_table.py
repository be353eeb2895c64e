"""A replay's step trace as a plain-text table for a person auditing a game.

One row per applied move: the room before it, the move, health, weapon and
dungeon after it, and what the move did in words. A rejected run gets one
more row for the offending move; the last line is the verdict.
"""

import scoundrel

SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
HEADINGS = ("#", "room", "move", "health", "weapon", "dungeon", "effect")
RIGHT_ALIGNED = {"#", "health", "dungeon"}
RED, BOLD, RESET = "\033[31m", "\033[1m", "\033[0m"


class TraceTable:
    """Renders one replay; ``symbols`` picks ♠♣♦♥ over S C D H, ``color`` adds ANSI highlights."""

    def __init__(self, symbols: bool = True, color: bool = False):
        self.symbols = symbols
        self.color = color

    def card(self, code: str) -> str:
        return SUIT_SYMBOLS[code[0]] + code[1:] if self.symbols else code

    def cards(self, codes, joiner: str = " ") -> str:
        return joiner.join(self.card(code) for code in codes)

    def highlight(self, text: str) -> str:
        return f"{BOLD}{RED}{text}{RESET}" if self.color else text

    def render(self, seed: str, variant: str, moves: list[str], verdict: scoundrel.Verdict) -> list[str]:
        """The lines to print: a heading, the table, the verdict."""
        dungeon = scoundrel.deal(seed)
        lines = [
            f"seed {seed}, variant {variant}, {len(moves)} move{'' if len(moves) == 1 else 's'} "
            f"(ruleset {scoundrel.RULESET}, engine {scoundrel.ENGINE_VERSION})",
            "",
        ]
        rows: list[tuple[str, ...]] = [HEADINGS]
        health, room, potion_in_room = 20, tuple(dungeon[:4]), False
        for step in verdict.steps:
            rows.append(self._row(step, health, potion_in_room))
            potion_in_room = (potion_in_room or step.move[0] == "H") and not step.effect.dealt
            health, room = step.health, step.room_after
        error = verdict.error
        if error is not None and error.code != "incomplete":
            offending = (str(error.move_index + 1), self.cards(room), moves[error.move_index], "", "", "",
                         f"<< rejected: {error.code} ({error.ruling})")
            rows.append(offending)
        lines += self._aligned(rows, highlight_last=error is not None and error.code != "incomplete")
        lines += ["", self._verdict_line(verdict, moves, room)]
        return lines

    def _row(self, step: scoundrel.Step, health_before: int, potion_in_room: bool) -> tuple[str, ...]:
        weapon = "-"
        if step.weapon:
            weapon = self.card(step.weapon)
            if step.last_kill:
                weapon += f" (last {self.card(step.last_kill)})"
        return (
            str(step.index + 1),
            self.cards(step.room),
            step.move,
            str(step.health),
            weapon,
            str(step.dungeon),
            self._effect(step, health_before, potion_in_room),
        )

    def _effect(self, step: scoundrel.Step, health_before: int, potion_in_room: bool) -> str:
        effect, move = step.effect, step.move
        if move == "flee":
            parts = [f"avoided: {self.cards(effect.avoided)} to the bottom"]
        elif move[0] == "H":
            if potion_in_room:
                parts = ["no effect: second potion in this room (R8)"]
            elif effect.healed:
                parts = [f"healed {effect.healed}" + (f" ({effect.wasted} wasted)" if effect.wasted else "")]
            else:
                parts = [f"healed 0 ({effect.wasted} wasted, already at {health_before})"]
        elif move[0] == "D":
            parts = [f"equipped {self.card(move)}"]  # an equip's notation is the weapon's card (R2)
            if effect.discarded:
                parts[0] += f", discarded {self.cards(effect.discarded, '+')}"
        elif move.endswith("w"):
            assert step.weapon is not None  # a fight with the weapon leaves it equipped (R10)
            parts = [f"killed {self.card(move[:-1])} with {self.card(step.weapon)}, took {effect.damage}"]
        else:
            parts = [f"fought {self.card(move[:-1])} barehanded, took {effect.damage}"]
        if step.health <= 0:
            parts.append("dead (R12)")
        elif effect.dealt:
            room = f"new room: {self.cards(step.room_after)}"
            if step.dungeon == 0 and len(step.room_after) < 4:
                room += " (the last, play every card: R5)"
            parts.append(room)
        elif not step.room_after and step.dungeon == 0:
            parts.append("dungeon cleared")
        return "; ".join(parts)

    def _aligned(self, rows: list[tuple[str, ...]], highlight_last: bool) -> list[str]:
        widths = [max(len(row[column]) for row in rows) for column in range(len(HEADINGS))]
        lines = []
        for row in rows:
            cells = [
                cell.rjust(width) if heading in RIGHT_ALIGNED else cell.ljust(width)
                for heading, cell, width in zip(HEADINGS, row, widths, strict=True)
            ]
            lines.append("  ".join(cells).rstrip())
        if highlight_last:
            lines[-1] = self.highlight(lines[-1])
        return lines

    def _verdict_line(self, verdict: scoundrel.Verdict, moves: list[str], room) -> str:
        error = verdict.error
        if error is not None:  # rejected
            if error.code == "incomplete":
                text = (f"REJECTED, incomplete ({error.ruling}): {error.message} "
                        f"The room still holds {self.cards(room)}.")
            else:
                reason = error.message.removeprefix(f"Move {error.move_index + 1}: ")
                text = (f"REJECTED at move {error.move_index + 1} ({moves[error.move_index]}), "
                        f"{error.code} ({error.ruling}): {reason}")
            return self.highlight(text)
        assert verdict.score is not None and verdict.health is not None  # a verified verdict has both
        difference = verdict.score - verdict.health
        if verdict.outcome == "won":
            text = f"WON with score {verdict.score}"
            if difference:
                text += (f" = health {verdict.health} + {difference}, "
                         "a potion drunk at full health as the last card (R15)")
            else:
                text += f" = health {verdict.health} (R15)"
        else:
            text = (f"LOST with score {verdict.score} = health {verdict.health} - {-difference}, "
                    f"the monsters left in the dungeon (R16)")
        return f"{text}; {verdict.moves} move{'' if verdict.moves == 1 else 's'}, verified."
