using System;
using System.Collections.Generic;

namespace Scoundrel.Referee
{
    /// <summary>The five kinds of move.</summary>
    public enum MoveType
    {
        /// <summary>Avoid the current room (R6, R7).</summary>
        Flee,
        /// <summary>Drink a potion from the room (R8).</summary>
        Drink,
        /// <summary>Equip a weapon from the room (R9).</summary>
        Equip,
        /// <summary>Fight a monster with the equipped weapon (R10, R11).</summary>
        FightWithWeapon,
        /// <summary>Fight a monster barehanded (R11).</summary>
        FightBarehanded,
    }

    /// <summary>
    /// A move in the notation of RULES.md, parsed once into an immutable value. Every legal notation is
    /// known in advance (71 strings), so parsing is one table lookup and the engine never reads a move
    /// string again.
    /// </summary>
    public sealed class Move
    {
        public const string FleeNotation = "flee";

        private static readonly Dictionary<string, Move> Table = BuildTable();
        internal static readonly Move FleeMove = Table[FleeNotation];
        // By card index: the notation of each way to play it (a potion's or a weapon's in Plain).
        internal static readonly Move[] Plain = new Move[Cards.Count];
        internal static readonly Move[] WithWeapon = new Move[Cards.Count];
        internal static readonly Move[] Barehanded = new Move[Cards.Count];

        public MoveType Type { get; }
        /// <summary>The card played, or null for flee.</summary>
        public string Card { get; }
        /// <summary>The card's value, 0 for flee.</summary>
        public int Value { get; }
        public string Notation { get; }
        internal readonly int CardIndex;

        private Move(MoveType type, int card, string notation)
        {
            Type = type;
            CardIndex = card;
            Card = card < 0 ? null : Cards.Codes[card];
            Value = card < 0 ? 0 : Cards.Values[card];
            Notation = notation;
        }

        static Move()
        {
            foreach (var move in Table.Values)
            {
                if (move.CardIndex < 0) continue;
                if (move.Type == MoveType.FightWithWeapon) WithWeapon[move.CardIndex] = move;
                else if (move.Type == MoveType.FightBarehanded) Barehanded[move.CardIndex] = move;
                else Plain[move.CardIndex] = move;
            }
        }

        private static Dictionary<string, Move> BuildTable()
        {
            var table = new Dictionary<string, Move>(StringComparer.Ordinal) { { FleeNotation, new Move(MoveType.Flee, -1, FleeNotation) } };
            for (var card = 0; card < Cards.Count; card++)
            {
                var code = Cards.Codes[card];
                switch (Cards.Kinds[card])
                {
                    case CardKind.Monster: // R2: the fight mode is always explicit
                        table.Add(code + "w", new Move(MoveType.FightWithWeapon, card, code + "w"));
                        table.Add(code + "b", new Move(MoveType.FightBarehanded, card, code + "b"));
                        break;
                    case CardKind.Potion:
                        table.Add(code, new Move(MoveType.Drink, card, code));
                        break;
                    default:
                        table.Add(code, new Move(MoveType.Equip, card, code));
                        break;
                }
            }
            return table;
        }

        /// <summary>Every string of the notation, 71 of them.</summary>
        public static IEnumerable<string> AllNotations
        {
            get { return Table.Keys; }
        }

        /// <summary>The move a notation names, or null when it is not in the notation (R2).</summary>
        public static Move Parse(string notation)
        {
            // Read as suit, value and fight mode, then held to the table's own spelling: a replay parses
            // every move, and this is quicker than hashing the string.
            if (notation == null || notation.Length < 2 || notation.Length > 4) return null;
            var last = notation[notation.Length - 1];
            var mode = last == 'w' || last == 'b' ? last : '\0';
            var digits = notation.Length - (mode == '\0' ? 1 : 2);
            var value = 0;
            for (var i = 1; i <= digits; i++)
            {
                var digit = notation[i] - '0';
                if (digit < 0 || digit > 9) return notation == FleeNotation ? FleeMove : null;
                value = value * 10 + digit;
            }
            var card = Cards.IndexOf(notation[0], value);
            if (card < 0) return null;
            var move = mode == 'w' ? WithWeapon[card] : mode == 'b' ? Barehanded[card] : Plain[card];
            return move != null && string.Equals(move.Notation, notation, StringComparison.Ordinal) ? move : null;
        }

        public override string ToString()
        {
            return Notation;
        }
    }
}
