using System;
using System.Collections.Generic;

namespace Scoundrel.Referee
{
    /// <summary>The variants of R14: only R6 (avoiding) differs.</summary>
    public enum Variant
    {
        Classic,
        Easy,
        Hard,
    }

    public static class Variants
    {
        /// <summary>The variants as the API names them, classic (the ranked one) first.</summary>
        public static readonly IReadOnlyList<string> Names = Array.AsReadOnly(new[] { "classic", "easy", "hard" });

        public static string Name(this Variant variant)
        {
            return Names[(int)variant];
        }

        /// <summary>The variant named, or false for a name that is none (names are case-sensitive).</summary>
        public static bool TryParse(string name, out Variant variant)
        {
            for (var i = 0; i < Names.Count; i++)
            {
                if (string.Equals(Names[i], name, StringComparison.Ordinal))
                {
                    variant = (Variant)i;
                    return true;
                }
            }
            variant = Variant.Classic;
            return false;
        }

        /// <summary>The variant named; ArgumentException for an unknown name.</summary>
        public static Variant Parse(string name)
        {
            Variant variant;
            if (!TryParse(name, out variant))
                throw new ArgumentException("unknown variant \"" + name + "\"; one of " + string.Join(", ", Names), "name");
            return variant;
        }
    }

    /// <summary>The rejection codes of RULES.md's verdicts.</summary>
    public static class RejectionCodes
    {
        public const string CardNotInRoom = "card_not_in_room";
        public const string WeaponNotUsable = "weapon_not_usable";
        public const string FleeNotAllowed = "flee_not_allowed";
        public const string MoveAfterGameOver = "move_after_game_over";
        public const string Incomplete = "incomplete";

        public static readonly IReadOnlyList<string> All =
            Array.AsReadOnly(new[] { CardNotInRoom, WeaponNotUsable, FleeNotAllowed, MoveAfterGameOver, Incomplete });
    }

    /// <summary>Why a move is illegal: one of RULES.md's codes, the ruling, the engine's own sentence.</summary>
    public sealed class Violation
    {
        public string Code { get; }
        public string Ruling { get; }
        public string Message { get; }

        public Violation(string code, string ruling, string message)
        {
            Code = code;
            Ruling = ruling;
            Message = message;
        }
    }

    /// <summary>Thrown by <see cref="Rules.Apply"/> for a move that <see cref="Rules.Check"/> rejects; the state is untouched.</summary>
    public sealed class RuleViolationException : Exception
    {
        public Violation Violation { get; }

        public RuleViolationException(Violation violation) : base(violation.Message)
        {
            Violation = violation;
        }
    }

    /// <summary>What one move did, for a game's display: the Python engine's Effect.</summary>
    public sealed class Effect
    {
        private static readonly IReadOnlyList<string> None = Array.AsReadOnly(new string[0]);

        /// <summary>Health lost in a fight (R11).</summary>
        public int Damage { get; internal set; }
        /// <summary>Health restored by a potion (R8).</summary>
        public int Healed { get; internal set; }
        /// <summary>Potion value that restored nothing: capped at 20, or a second potion (R8).</summary>
        public int Wasted { get; internal set; }
        /// <summary>The weapon just equipped (R9), or null.</summary>
        public string Equipped { get; internal set; }
        /// <summary>The old weapon and its kills, discarded by R9.</summary>
        public IReadOnlyList<string> Discarded { get; internal set; } = None;
        /// <summary>The monster recorded as the weapon's last kill (R10, R11), or null.</summary>
        public string Killed { get; internal set; }
        /// <summary>The room sent to the bottom of the dungeon (R7).</summary>
        public IReadOnlyList<string> Avoided { get; internal set; } = None;
        /// <summary>Cards drawn into a new room after this move (R4, R5).</summary>
        public IReadOnlyList<string> Dealt { get; internal set; } = None;
    }

    /// <summary>
    /// The rulings of scoundrel-1: legality in one place (<see cref="Check"/>), before anything changes,
    /// then the effect (<see cref="Apply"/>). A port of the Python engine (scoundrel/rules.py) and of the
    /// JavaScript client (clients/js/src/rules.js); messages are the engine's own, word for word, so a game
    /// shows what the referee will say.
    /// </summary>
    public static class Rules
    {
        /// <summary>The opening position: the first room dealt from the dungeon for the seed.</summary>
        public static GameState Start(string seed)
        {
            return Start(Dealer.DealIndices(seed));
        }

        /// <summary>The opening position: the first room dealt from a dungeon of card codes, top first.</summary>
        public static GameState Start(IReadOnlyList<string> dungeon)
        {
            var deck = new int[dungeon.Count];
            for (var i = 0; i < deck.Length; i++) deck[i] = Cards.IndexOf(dungeon[i]);
            return Start(deck);
        }

        internal static GameState Start(int[] deck)
        {
            var state = new GameState(deck);
            DealRoom(state, false);
            return state;
        }

        /// <summary>Fill the room from the top of the dungeon up to 4 cards (R4, R5) and open it (R8).</summary>
        private static IReadOnlyList<string> DealRoom(GameState state, bool tell)
        {
            var first = state.roomCount;
            while (state.roomCount < GameState.RoomSize && state.dungeonCount > 0) state.room[state.roomCount++] = state.DrawFromDungeon();
            state.playedInRoom = 0;
            state.potionDrunk = false;
            if (!tell || state.roomCount == first) return null;
            var dealt = new string[state.roomCount - first];
            for (var i = 0; i < dealt.Length; i++) dealt[i] = Cards.Codes[state.room[first + i]];
            return Array.AsReadOnly(dealt);
        }

        private static string RoomText(GameState state)
        {
            return state.roomCount == 0 ? "no cards" : string.Join(", ", state.Room);
        }

        private static Violation FleeViolation(GameState state, Variant variant)
        {
            if (variant == Variant.Hard)
                return new Violation(RejectionCodes.FleeNotAllowed, "R14", "Avoiding a room is never allowed in the hard variant (R14).");
            if (state.playedInRoom > 0)
                return new Violation(RejectionCodes.FleeNotAllowed, "R6", "A room can only be avoided before any of its cards is played (R6).");
            if (state.roomCount != GameState.RoomSize)
                return new Violation(RejectionCodes.FleeNotAllowed, "R6",
                    "Only a room of 4 cards can be avoided; this one holds " + state.roomCount + " (R6).");
            if (variant == Variant.Classic && state.avoidedLast)
                return new Violation(RejectionCodes.FleeNotAllowed, "R6",
                    "The previous room was avoided, so this one must be faced: no two avoids in a row (R6).");
            return null;
        }

        private static Violation WeaponViolation(GameState state, Move move)
        {
            if (state.weapon < 0)
                return new Violation(RejectionCodes.WeaponNotUsable, "R11",
                    "No weapon is equipped, so " + move.Card + " can only be fought barehanded (R11).");
            if (state.killCount > 0)
            {
                var lastKill = state.kills[state.killCount - 1];
                if (move.Value >= Cards.Values[lastKill])
                    return new Violation(RejectionCodes.WeaponNotUsable, "R10",
                        "The weapon " + Cards.Codes[state.weapon] + " last killed " + Cards.Codes[lastKill] +
                        ", so it may only fight monsters weaker than " + Cards.Values[lastKill] + "; " + move.Card +
                        " must be fought barehanded (R10).");
            }
            return null;
        }

        /// <summary>Why the move is illegal in the state, or null when it is legal.</summary>
        public static Violation Check(GameState state, Move move, Variant variant = Variant.Classic)
        {
            if (state.health <= 0)
                return new Violation(RejectionCodes.MoveAfterGameOver, "R12", "The game was already lost; no move may follow (R12).");
            if (state.roomCount == 0 && state.dungeonCount == 0)
                return new Violation(RejectionCodes.MoveAfterGameOver, "R13", "The game was already won; no move may follow (R13).");
            if (move.Type == MoveType.Flee) return FleeViolation(state, variant);
            if (state.RoomIndexOf(move.CardIndex) < 0)
                return new Violation(RejectionCodes.CardNotInRoom, "R4",
                    move.Card + " is not in the room; the room holds " + RoomText(state) + " (R4).");
            if (move.Type == MoveType.FightWithWeapon) return WeaponViolation(state, move);
            return null;
        }

        /// <summary>
        /// Apply a legal move to the state in place and say what it did. Throws RuleViolationException, and
        /// leaves the state untouched, for an illegal one.
        /// </summary>
        public static Effect Apply(GameState state, Move move, Variant variant = Variant.Classic)
        {
            var violation = Check(state, move, variant);
            if (violation != null) throw new RuleViolationException(violation);
            var effect = new Effect();
            Play(state, move, effect);
            return effect;
        }

        /// <summary>Apply a move already known legal; fill in <paramref name="effect"/> unless it is null (a replay needs none).</summary>
        internal static void Play(GameState state, Move move, Effect effect)
        {
            switch (move.Type)
            {
                case MoveType.Flee:
                    Flee(state, effect);
                    return;
                case MoveType.Drink:
                    Drink(state, move, effect);
                    break;
                case MoveType.Equip:
                    Equip(state, move, effect);
                    break;
                case MoveType.FightWithWeapon:
                    FightWithWeapon(state, move, effect);
                    break;
                default:
                    FightBarehanded(state, move, effect);
                    break;
            }
            state.RemoveFromRoom(state.RoomIndexOf(move.CardIndex));
            state.playedInRoom++;
            state.avoidedLast = false; // R6: playing a card clears the no-second-avoid restriction
            if (state.health <= 0) return; // R12: the game is over; no new room is dealt
            // R4: three of four played, the last card stays and a new room is filled;
            // R5: a short room is played out completely before the next one.
            if (state.roomCount == 0 || (state.roomCount == 1 && !state.IsShortRoom))
            {
                var dealt = DealRoom(state, effect != null);
                if (dealt != null) effect.Dealt = dealt;
            }
        }

        private static void Flee(GameState state, Effect effect)
        {
            // R7: all four cards to the bottom, in room order; then a new room.
            if (effect != null) effect.Avoided = state.Room;
            for (var i = 0; i < state.roomCount; i++) state.PutUnderDungeon(state.room[i]);
            state.roomCount = 0;
            var dealt = DealRoom(state, effect != null);
            if (dealt != null) effect.Dealt = dealt;
            state.avoidedLast = true;
        }

        private static void Drink(GameState state, Move move, Effect effect)
        {
            // R15: the bonus stands only if this potion stays the last card played.
            state.bonus = state.health == GameState.MaxHealth ? move.Value : 0;
            if (state.potionDrunk)
            {
                if (effect != null) effect.Wasted = move.Value; // R8: a further potion has no effect
                return;
            }
            state.potionDrunk = true;
            var healed = Math.Min(GameState.MaxHealth, state.health + move.Value) - state.health;
            state.health += healed;
            if (effect == null) return;
            effect.Healed = healed;
            effect.Wasted = move.Value - healed;
        }

        private static void Equip(GameState state, Move move, Effect effect)
        {
            // R9: always replaces the weapon, discarding it with every monster it killed.
            if (effect != null)
            {
                effect.Equipped = move.Card;
                if (state.weapon >= 0)
                {
                    var discarded = new List<string> { Cards.Codes[state.weapon] };
                    discarded.AddRange(state.Kills);
                    effect.Discarded = discarded.AsReadOnly();
                }
            }
            state.weapon = move.CardIndex;
            state.killCount = 0;
            state.bonus = 0;
        }

        private static void FightWithWeapon(GameState state, Move move, Effect effect)
        {
            // R11: the weapon absorbs its value; the monster becomes its last kill (R10).
            var damage = Math.Max(0, move.Value - Cards.Values[state.weapon]);
            state.kills[state.killCount++] = move.CardIndex;
            state.health -= damage;
            state.bonus = 0;
            if (effect == null) return;
            effect.Damage = damage;
            effect.Killed = move.Card;
        }

        private static void FightBarehanded(GameState state, Move move, Effect effect)
        {
            state.health -= move.Value; // R11: the full value
            state.bonus = 0;
            if (effect != null) effect.Damage = move.Value;
        }

        /// <summary>Every legal move of the state in notation, in room order, flee last (empty once the game is over).</summary>
        public static List<string> LegalMoves(GameState state, Variant variant = Variant.Classic)
        {
            var legal = new List<string>(9);
            for (var i = 0; i < state.roomCount; i++)
            {
                var card = state.room[i];
                if (Cards.Kinds[card] == CardKind.Monster)
                {
                    if (Check(state, Move.WithWeapon[card], variant) == null) legal.Add(Move.WithWeapon[card].Notation);
                    if (Check(state, Move.Barehanded[card], variant) == null) legal.Add(Move.Barehanded[card].Notation);
                }
                else if (Check(state, Move.Plain[card], variant) == null)
                {
                    legal.Add(Move.Plain[card].Notation);
                }
            }
            if (Check(state, Move.FleeMove, variant) == null) legal.Add(Move.FleeNotation);
            return legal;
        }

        /// <summary>
        /// The equipped weapon and its kills after the legal moves, from the moves alone: equipping discards
        /// the old weapon and its kills (R9), a fight with the weapon makes the monster its last kill (R10).
        /// A dealt game's client knows its moves but not the deck, and this is all it takes to name them.
        /// </summary>
        public static void ArmsAfter(IEnumerable<string> moves, out string weapon, out List<string> kills)
        {
            weapon = null;
            kills = new List<string>();
            foreach (var notation in moves)
            {
                var move = Move.Parse(notation);
                if (move == null) continue;
                if (move.Type == MoveType.Equip)
                {
                    weapon = move.Card;
                    kills = new List<string>();
                }
                else if (move.Type == MoveType.FightWithWeapon)
                {
                    kills.Add(move.Card);
                }
            }
        }
    }
}
