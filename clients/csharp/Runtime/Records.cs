using System.Collections.Generic;
using System.Linq;

namespace Scoundrel.Referee
{
    /// <summary>A player just registered: the name as registered, and the token, shown this once (null for a studio's account).</summary>
    public sealed class Registration
    {
        public string Name { get; }
        public string Token { get; }

        internal Registration(JsonObject json)
        {
            Name = json.GetString("name");
            Token = json.GetString("token");
        }
    }

    /// <summary>A run as GET /v1/runs/&lt;id&gt; shows it; every field of the answer is in Json.</summary>
    public sealed class Run
    {
        public string Id { get; }
        public string Player { get; }
        /// <summary>Null for a sealed daily's run until its UTC day is over.</summary>
        public string Seed { get; }
        public string Variant { get; }
        public IReadOnlyList<string> Moves { get; }
        /// <summary>pending, verified, rejected, invalid, error or void.</summary>
        public string Status { get; }
        /// <summary>won, lost or forfeit for a verified run, else null.</summary>
        public string Outcome { get; }
        public int? Score { get; }
        public int? Health { get; }
        /// <summary>The error of a rejected run, else null.</summary>
        public RuleError Error { get; }
        /// <summary>open or dealt.</summary>
        public string Origin { get; }
        /// <summary>The dealt game it is the run of, or null.</summary>
        public string GameId { get; }
        public JsonObject Json { get; }

        internal Run(JsonObject json)
        {
            Json = json;
            Id = json.GetString("id");
            Player = json.GetString("player");
            Seed = json.GetString("seed");
            Variant = json.GetString("variant");
            Moves = json.Get("moves") == null ? null : json.GetStrings("moves").AsReadOnly();
            Status = json.GetString("status");
            Outcome = json.GetString("outcome");
            Score = json.GetInt("score");
            Health = json.GetInt("health");
            Error = RuleError.FromJson(json.GetObject("error"));
            Origin = json.GetString("origin");
            GameId = json.GetString("game_id");
        }

        /// <summary>Still waiting for a worker's verdict.</summary>
        public bool Pending
        {
            get { return Status == "pending"; }
        }
    }

    /// <summary>The answer to a submission: the run, whether it is new (202) or this player had sent the same game (200), and its URL.</summary>
    public sealed class SubmittedRun
    {
        public Run Run { get; }
        public bool Created { get; }
        public string Location { get; }

        internal SubmittedRun(Run run, bool created, string location)
        {
            Run = run;
            Created = created;
            Location = location;
        }
    }

    /// <summary>
    /// One place on a board, in the shape every board listing shares: rank, player, score (a ladder's
    /// mean and games instead), the run, and with ?among= the place on the whole board.
    /// </summary>
    public sealed class BoardEntry
    {
        public int Rank { get; }
        public string Player { get; }
        /// <summary>The score, or null on a ladder (see Mean).</summary>
        public int? Score { get; }
        /// <summary>A ladder's mean score over the player's last 20 dealt games, else null.</summary>
        public double? Mean { get; }
        public string RunId { get; }
        /// <summary>With ?among=: the place on the whole board; else null.</summary>
        public int? GlobalRank { get; }
        public JsonObject Json { get; }

        internal BoardEntry(JsonObject json)
        {
            Json = json;
            Rank = json.GetInt("rank") ?? 0;
            Player = json.GetString("player");
            Score = json.GetInt("score");
            Mean = json.GetDouble("mean");
            RunId = json.GetString("run_id");
            GlobalRank = json.GetInt("global_rank");
        }

        internal static IReadOnlyList<BoardEntry> ListOf(JsonObject json, string key)
        {
            var list = json.GetList(key) ?? new List<object>();
            return list.OfType<JsonObject>().Select(entry => new BoardEntry(entry)).ToList().AsReadOnly();
        }
    }

    /// <summary>A page of a board: its total (of the view, with ?among=), the entries, and the whole answer in Json.</summary>
    public sealed class BoardPage
    {
        public int Total { get; }
        public IReadOnlyList<BoardEntry> Entries { get; }
        /// <summary>With ?among=: the name as registered; else null.</summary>
        public string Among { get; }
        public JsonObject Json { get; }

        internal BoardPage(JsonObject json)
        {
            Json = json;
            Total = json.GetInt("total") ?? 0;
            Entries = BoardEntry.ListOf(json, "entries");
            Among = json.GetString("among");
        }
    }

    /// <summary>A player's place on a board with the places around it (the player's own among them).</summary>
    public sealed class BoardPlace
    {
        public int Rank { get; }
        public int? Score { get; }
        public double? Mean { get; }
        public string RunId { get; }
        public IReadOnlyList<BoardEntry> Around { get; }
        public JsonObject Json { get; }

        internal BoardPlace(JsonObject json)
        {
            Json = json;
            Rank = json.GetInt("rank") ?? 0;
            Score = json.GetInt("score");
            Mean = json.GetDouble("mean");
            RunId = json.GetString("run_id");
            Around = BoardEntry.ListOf(json, "around");
        }
    }
}
