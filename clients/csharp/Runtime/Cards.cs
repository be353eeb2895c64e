using System;
using System.Collections.Generic;

namespace Scoundrel.Referee
{
    /// <summary>What a card is (R1): S and C are monsters, D weapons, H potions.</summary>
    public enum CardKind
    {
        Monster,
        Weapon,
        Potion,
    }

    /// <summary>
    /// The 44 cards of scoundrel-1, named by code: suit letter and value, S2…S14, C2…C14, D2…D10, H2…H10.
    /// Inside the engine a card is its index in the canonical order, so a move or a position never
    /// compares strings; codes are what the public API shows.
    /// </summary>
    public static class Cards
    {
        /// <summary>The canonical order of deal-v1: spades 2–14, clubs 2–14, diamonds 2–10, hearts 2–10.</summary>
        public static readonly IReadOnlyList<string> CanonicalOrder;

        public const int Count = 44;

        internal static readonly string[] Codes;
        internal static readonly int[] Values;
        internal static readonly CardKind[] Kinds;
        private static readonly Dictionary<string, int> IndexByCode = new Dictionary<string, int>(StringComparer.Ordinal);

        static Cards()
        {
            var codes = new List<string>();
            AddSuit(codes, 'S', 14);
            AddSuit(codes, 'C', 14);
            AddSuit(codes, 'D', 10);
            AddSuit(codes, 'H', 10);
            Codes = codes.ToArray();
            Values = new int[Codes.Length];
            Kinds = new CardKind[Codes.Length];
            for (var i = 0; i < Codes.Length; i++)
            {
                Values[i] = int.Parse(Codes[i].Substring(1));
                Kinds[i] = Codes[i][0] == 'D' ? CardKind.Weapon : Codes[i][0] == 'H' ? CardKind.Potion : CardKind.Monster;
                IndexByCode[Codes[i]] = i;
            }
            CanonicalOrder = Array.AsReadOnly(Codes);
        }

        private static void AddSuit(List<string> codes, char suit, int high)
        {
            for (var value = 2; value <= high; value++) codes.Add(suit + value.ToString());
        }

        /// <summary>True for one of the 44 codes.</summary>
        public static bool IsCard(string code)
        {
            return code != null && IndexByCode.ContainsKey(code);
        }

        /// <summary>The card's value, 2–14 (J 11, Q 12, K 13, A 14). ArgumentException for no card.</summary>
        public static int ValueOf(string code)
        {
            return Values[IndexOf(code)];
        }

        public static CardKind KindOf(string code)
        {
            return Kinds[IndexOf(code)];
        }

        /// <summary>The index of the card of that suit letter and value, or -1 for none.</summary>
        internal static int IndexOf(char suit, int value)
        {
            int first, high;
            switch (suit)
            {
                case 'S': first = 0; high = 14; break;
                case 'C': first = 13; high = 14; break;
                case 'D': first = 26; high = 10; break;
                case 'H': first = 35; high = 10; break;
                default: return -1;
            }
            return value >= 2 && value <= high ? first + value - 2 : -1;
        }

        internal static int IndexOf(string code)
        {
            int index;
            if (code == null || !IndexByCode.TryGetValue(code, out index))
                throw new ArgumentException("not a card of scoundrel-1: " + (code ?? "null"), "code");
            return index;
        }
    }
}
