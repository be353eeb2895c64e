using System;

namespace Scoundrel.Referee
{
    /// <summary>
    /// A board of the API, named once: where its listing is and where a player's place on it is. Every
    /// board answers the same few calls (RefereeClient.BoardAsync, PlaceAsync), as the service serves
    /// every board through the same listing (docs/api.md, "Rankings").
    /// </summary>
    public sealed class Board
    {
        /// <summary>The listing's path, e.g. /v1/leaderboards/classic.</summary>
        public string Path { get; }
        /// <summary>Query parameters every call on the board carries (a seed board's variant), or empty.</summary>
        public string Query { get; }

        private Board(string path, string query = "")
        {
            Path = path;
            Query = query;
        }

        private static string Part(string text)
        {
            return Uri.EscapeDataString(text);
        }

        /// <summary>Each player's best verified open run of the variant.</summary>
        public static Board Open(Variant variant)
        {
            return new Board("/v1/leaderboards/" + variant.Name());
        }

        /// <summary>Each player's best verified dealt game of the variant.</summary>
        public static Board Dealt(Variant variant)
        {
            return new Board("/v1/leaderboards/dealt/" + variant.Name());
        }

        /// <summary>The ladder: each player's mean over their last 20 dealt games of the variant.</summary>
        public static Board Ladder(Variant variant)
        {
            return new Board("/v1/leaderboards/dealt/" + variant.Name() + "/ladder");
        }

        /// <summary>The daily board of a UTC day (YYYY-MM-DD): each player's first verified classic run on its seed.</summary>
        public static Board Daily(string date)
        {
            return new Board("/v1/daily/" + Part(date) + "/leaderboard");
        }

        /// <summary>The sealed daily's board of a UTC day: one dealt game per player.</summary>
        public static Board SealedDaily(string date)
        {
            return new Board("/v1/daily/" + Part(date) + "/sealed/leaderboard");
        }

        /// <summary>A seed's board: each player's best verified open run on it, played as the variant.</summary>
        public static Board Seed(string seed, Variant variant = Variant.Classic)
        {
            return new Board("/v1/seeds/" + Part(seed) + "/leaderboard", "variant=" + variant.Name());
        }

        /// <summary>A season's dealt board (ids like 2026-12 or 2026-W49).</summary>
        public static Board Season(string season, Variant variant)
        {
            return new Board("/v1/seasons/" + Part(season) + "/leaderboards/dealt/" + variant.Name());
        }

        /// <summary>A season's ladder.</summary>
        public static Board SeasonLadder(string season, Variant variant)
        {
            return new Board("/v1/seasons/" + Part(season) + "/leaderboards/dealt/" + variant.Name() + "/ladder");
        }

        internal string PlayerPath(string player)
        {
            return Path + "/players/" + Part(player);
        }

        public override string ToString()
        {
            return Query.Length == 0 ? Path : Path + "?" + Query;
        }
    }

    /// <summary>Which page of a listing: limit 1–100 (the service's default 20), offset from 0.</summary>
    public sealed class Page
    {
        public int Limit { get; }
        public int Offset { get; }

        public Page(int limit = 20, int offset = 0)
        {
            Limit = limit;
            Offset = offset;
        }

        /// <summary>The page after this one.</summary>
        public Page Next()
        {
            return new Page(Limit, Offset + Limit);
        }
    }
}
