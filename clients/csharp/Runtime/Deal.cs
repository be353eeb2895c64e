using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Scoundrel.Referee
{
    /// <summary>
    /// The deal deal-v1: a seeded SHA-256 Fisher–Yates shuffle, word for word as RULES.md specifies it,
    /// so a game deals the very dungeon the referee replays.
    /// </summary>
    public static class Dealer
    {
        private const int WordsPerDigest = 8;
        private const string Prefix = "scoundrel/deal/v1:";

        // One message buffer and one digest a thread: a replay deals once per game, and the allocations
        // would cost more than hashing the few blocks a deal takes.
        [ThreadStatic] private static byte[] message;
        [ThreadStatic] private static uint[] digest;
        [ThreadStatic] private static uint[] block;

        /// <summary>True for a seed of 1–64 characters from A–Z a–z 0–9 _ -.</summary>
        public static bool IsValidSeed(string seed)
        {
            if (seed == null || seed.Length < 1 || seed.Length > 64) return false;
            foreach (var c in seed)
            {
                var ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
                if (!ok) return false;
            }
            return true;
        }

        /// <summary>The dungeon for the seed, top card (the first dealt) first. ArgumentException for an invalid seed.</summary>
        public static IReadOnlyList<string> Deal(string seed)
        {
            var cards = DealIndices(seed);
            var codes = new string[cards.Length];
            for (var i = 0; i < cards.Length; i++) codes[i] = Cards.Codes[cards[i]];
            return Array.AsReadOnly(codes);
        }

        /// <summary>The dungeon as card indices into the canonical order, top first.</summary>
        internal static int[] DealIndices(string seed)
        {
            if (!IsValidSeed(seed)) throw new ArgumentException("invalid seed \"" + seed + "\": " + EngineInfo.SeedRule, "seed");
            if (message == null)
            {
                message = new byte[Prefix.Length + 64 + 1 + 11];
                digest = new uint[8];
                block = new uint[16];
                Encoding.ASCII.GetBytes(Prefix, 0, Prefix.Length, message, 0);
            }
            var length = Prefix.Length;
            length += Encoding.ASCII.GetBytes(seed, 0, seed.Length, message, length);
            message[length++] = (byte)':';
            var words = new WordStream(length);
            var cards = new int[Cards.Count];
            for (var i = 0; i < cards.Length; i++) cards[i] = i;
            for (var i = cards.Length - 1; i > 0; i--)
            {
                var n = (uint)(i + 1);
                // uniform(n): accept a word only below floor(2^32 / n) * n, so w mod n is unbiased.
                // The limit is 2^32 itself (every word accepted) when n divides 2^32: it takes 64 bits.
                var limit = (4294967296UL / n) * n;
                var word = words.Next();
                while (word >= limit) word = words.Next();
                var j = (int)(word % n);
                var swapped = cards[i];
                cards[i] = cards[j];
                cards[j] = swapped;
            }
            return cards;
        }

        /// <summary>The words of SHA-256("scoundrel/deal/v1:" + seed + ":" + k) for k = 0, 1, …, big-endian, one after another.</summary>
        private sealed class WordStream
        {
            private readonly int prefixLength;
            private int counter;
            private int position = WordsPerDigest;

            public WordStream(int prefixLength)
            {
                this.prefixLength = prefixLength;
            }

            public uint Next()
            {
                if (position == WordsPerDigest)
                {
                    Sha256.Hash(message, prefixLength + WriteDecimal(counter, prefixLength), digest, block);
                    counter++;
                    position = 0;
                }
                return digest[position++];
            }

            /// <summary>k in decimal without padding, written into the message at <paramref name="at"/>; its length.</summary>
            private static int WriteDecimal(int k, int at)
            {
                var length = k < 10 ? 1 : k < 100 ? 2 : k.ToString(CultureInfo.InvariantCulture).Length;
                for (var i = length - 1; i >= 0; i--, k /= 10) message[at + i] = (byte)('0' + k % 10);
                return length;
            }
        }
    }
}
