using System;
using System.Security.Cryptography;
using System.Text;

namespace Scoundrel.Referee
{
    /// <summary>
    /// The commitment of a dealt game: the hex SHA-256 of the server's seed, published before the first
    /// card is dealt (next-deal, before the player chooses a seed of their own) and checked once the seed
    /// is revealed, so a player can tell the deck was fixed from the start and that the server did not
    /// pick it alone.
    /// </summary>
    public static class Commitments
    {
        /// <summary>The lowercase hex SHA-256 of the seed's UTF-8 bytes, as the referee commits to it.</summary>
        public static string CommitmentOf(string seed)
        {
            using (var sha = SHA256.Create()) return Hex(sha.ComputeHash(Encoding.UTF8.GetBytes(seed)));
        }

        /// <summary>
        /// The seed a game with a client seed is dealt from (deal-v1): base64url(HMAC-SHA256(key = server
        /// seed, message = client seed)) without padding, 43 characters. Without a client seed, the server seed.
        /// </summary>
        public static string DealtSeed(string serverSeed, string clientSeed)
        {
            if (string.IsNullOrEmpty(clientSeed)) return serverSeed;
            using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(serverSeed)))
                return Base64Url(hmac.ComputeHash(Encoding.UTF8.GetBytes(clientSeed)));
        }

        /// <summary>A client seed drawn here: 128 random bits as 22 base64url characters (a valid seed).</summary>
        public static string DrawClientSeed()
        {
            var bytes = new byte[16];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(bytes);
            return Base64Url(bytes);
        }

        private static string Hex(byte[] bytes)
        {
            var text = new StringBuilder(bytes.Length * 2);
            foreach (var b in bytes) text.Append(b.ToString("x2"));
            return text.ToString();
        }

        /// <summary>Bytes as base64url without padding (RFC 4648 §5): the alphabet of a seed.</summary>
        private static string Base64Url(byte[] bytes)
        {
            return Convert.ToBase64String(bytes).Replace('+', '-').Replace('/', '_').TrimEnd('=');
        }
    }
}
