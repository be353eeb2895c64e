using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;

namespace Scoundrel.Referee
{
    /// <summary>
    /// A dealt game as the server last showed it, in the shape of a local Game plus what only a dealt game
    /// has. Weapon, Kills and LastKill are cards, read from the moves (the API gives their values only).
    /// </summary>
    public sealed class DealtGameState
    {
        public string Id { get; }
        public string Player { get; }
        public string Variant { get; }
        /// <summary>"daily" for the sealed daily, else null.</summary>
        public string Challenge { get; }
        public string Date { get; }
        /// <summary>playing, won, lost or forfeit.</summary>
        public string Status { get; }
        /// <summary>The hex SHA-256 of the server seed, shown from the start.</summary>
        public string Commitment { get; }
        /// <summary>The seed the game is dealt from: null until revealed.</summary>
        public string Seed { get; }
        /// <summary>With a client seed: the server seed, null until revealed.</summary>
        public string ServerSeed { get; }
        public string ClientSeed { get; }
        public IReadOnlyList<string> Room { get; }
        public int Health { get; }
        public string Weapon { get; }
        public IReadOnlyList<string> Kills { get; }
        public string LastKill { get; }
        public int DungeonCount { get; }
        public IReadOnlyList<string> Moves { get; }
        public IReadOnlyList<string> LegalMoves { get; }
        /// <summary>Null until the game's run is verified (RefreshAsync).</summary>
        public int? Score { get; }
        /// <summary>The game's run, once it has ended; else null.</summary>
        public string RunId { get; }
        public string Tournament { get; }
        /// <summary>The whole answer of the API.</summary>
        public JsonObject Json { get; }

        internal DealtGameState(JsonObject game)
        {
            Json = game;
            Id = game.GetString("id");
            Player = game.GetString("player");
            Variant = game.GetString("variant");
            Challenge = game.GetString("challenge");
            Date = game.GetString("date");
            Status = game.GetString("status");
            Commitment = game.GetString("commitment");
            Seed = game.GetString("seed");
            ServerSeed = game.GetString("server_seed");
            ClientSeed = game.GetString("client_seed");
            Room = game.GetStrings("room").AsReadOnly();
            Health = game.GetInt("health") ?? 0;
            DungeonCount = game.GetInt("cards_left") ?? 0;
            Moves = game.GetStrings("moves").AsReadOnly();
            LegalMoves = game.GetStrings("legal_moves").AsReadOnly();
            Score = game.GetInt("score");
            RunId = game.GetString("run_id");
            Tournament = game.GetString("tournament");
            string weapon;
            List<string> kills;
            Rules.ArmsAfter(Moves, out weapon, out kills);
            Weapon = weapon;
            Kills = kills.AsReadOnly();
            LastKill = kills.Count == 0 ? null : kills[kills.Count - 1];
        }

        public bool Over
        {
            get { return Status != Game.Playing; }
        }

        public bool Won
        {
            get { return Status == Verdict.Won; }
        }

        public bool Lost
        {
            get { return Status == Verdict.Lost; }
        }

        public bool Forfeited
        {
            get { return Status == Verdict.Forfeit; }
        }
    }

    /// <summary>Where a position the server showed differs from the one the revealed seed deals.</summary>
    public sealed class Mismatch
    {
        /// <summary>After this many moves.</summary>
        public int Moves { get; }
        /// <summary>room, health, weapon, kills, dungeonCount; move (the seed's deal refuses that move); seed (not a seed at all).</summary>
        public string Field { get; }
        public string Shown { get; }
        public string Dealt { get; }

        internal Mismatch(int moves, string field, string shown, string dealt)
        {
            Moves = moves;
            Field = field;
            Shown = shown;
            Dealt = dealt;
        }

        public override string ToString()
        {
            return "after " + Moves + " moves, " + Field + ": shown " + Shown + ", dealt " + Dealt;
        }
    }

    /// <summary>What VerifyCommitmentAsync found once the seed was revealed.</summary>
    public sealed class CommitmentCheck
    {
        /// <summary>False while the seed is sealed (a game in play, a sealed daily before its day is over): nothing else is set.</summary>
        public bool Revealed { get; internal set; }
        /// <summary>Everything checks out: the commitment, every position shown, and the run's verdict.</summary>
        public bool Ok { get; internal set; }
        public string Seed { get; internal set; }
        public string ServerSeed { get; internal set; }
        /// <summary>SHA-256(server seed) is the commitment, and with a client seed the seed is derived from both.</summary>
        public bool CommitmentMatches { get; internal set; }
        /// <summary>The local replay's verdict, or null if the seed's deal refuses a move played.</summary>
        public Verdict Verdict { get; internal set; }
        /// <summary>The server's run of the game, judged.</summary>
        public Run Run { get; internal set; }
        public bool VerdictMatches { get; internal set; }
        public IReadOnlyList<Mismatch> Mismatches { get; internal set; }
    }

    /// <summary>
    /// A game the referee deals, played move by move over HTTP: the client never holds the seed while it
    /// plays, only what the server shows (room, health, legal moves). The server publishes its seed's
    /// SHA-256 before the first card, and reveals the seed after the end; <see cref="VerifyCommitmentAsync"/>
    /// then checks the hash, replays the game locally and compares every position the server showed.
    /// Get one with RefereeClient.StartGameAsync or ResumeGameAsync.
    /// </summary>
    public sealed class DealtGame
    {
        private readonly RefereeClient client;
        private readonly Dictionary<int, DealtGameState> shown = new Dictionary<int, DealtGameState>(); // moves played → the state shown then

        /// <summary>The game as the server last showed it.</summary>
        public DealtGameState State { get; private set; }

        internal DealtGame(RefereeClient client, JsonObject game)
        {
            this.client = client;
            Show(game);
        }

        internal static string PathOf(string gameId)
        {
            return "/v1/games/" + Uri.EscapeDataString(gameId);
        }

        private DealtGameState Show(object game)
        {
            State = new DealtGameState((JsonObject)game);
            shown[State.Moves.Count] = State;
            return State;
        }

        /// <summary>The legal moves the server lists, in room order, flee last (empty once the game is over).</summary>
        public IReadOnlyList<string> LegalMoves()
        {
            return State.LegalMoves;
        }

        public bool IsLegal(string notation)
        {
            return State.LegalMoves.Contains(notation);
        }

        public bool Over
        {
            get { return State.Over; }
        }

        /// <summary>
        /// Play one move, or several in order, and return the new state. The request says how many moves the
        /// game had (expected_moves), so a retry can never play them twice. Throws, and nothing is played:
        /// NotationException for a string outside the notation (before sending); IllegalMoveException for a
        /// move the rules forbid (MoveIndex in the whole game, the referee's message; its InnerException the
        /// InvalidRequestException of the 422); ConflictException when the game had moved on (the state is
        /// refreshed first, and if it now holds exactly the moves asked for, this returns instead).
        /// </summary>
        public async Task<DealtGameState> PlayAsync(IReadOnlyList<string> moves, CancellationToken cancellation = default(CancellationToken))
        {
            if (moves.Count == 0) throw new ArgumentException("PlayAsync needs a move, or a non-empty list of moves", "moves");
            var played = State.Moves;
            for (var i = 0; i < moves.Count; i++)
                if (Move.Parse(moves[i]) == null) throw new NotationException(moves[i], played.Count + i);
            var body = new JsonObject { { "moves", moves.Cast<object>().ToList() }, { "expected_moves", (long)played.Count } };
            try
            {
                return Show((await client.SendAsync(HttpMethod.Post, PathOf(State.Id) + "/moves", body, cancellation)).Body);
            }
            catch (ConflictException conflict)
            {
                return await AfterConflictAsync(conflict, played.Concat(moves).ToList(), cancellation);
            }
            catch (InvalidRequestException refused) when (refused.MoveError != null)
            {
                var error = refused.MoveError;
                var inGame = new RuleError(error.Code, played.Count + error.MoveIndex, error.Message, error.Ruling);
                throw new IllegalMoveException(inGame, error.MoveIndex < moves.Count ? moves[error.MoveIndex] : null, refused);
            }
        }

        /// <summary>Play one move: see <see cref="PlayAsync(IReadOnlyList{string}, CancellationToken)"/>.</summary>
        public Task<DealtGameState> PlayAsync(string move, CancellationToken cancellation = default(CancellationToken))
        {
            return PlayAsync(new[] { move }, cancellation);
        }

        /// <summary>A 409: show the game as it is now; the wanted moves were played after all (an earlier try got through), or throw.</summary>
        private async Task<DealtGameState> AfterConflictAsync(ConflictException conflict, List<string> wanted, CancellationToken cancellation)
        {
            var now = await RefreshAsync(cancellation);
            if (wanted != null && now.Moves.SequenceEqual(wanted)) return now;
            var count = now.Moves.Count + (now.Moves.Count == 1 ? " move" : " moves");
            throw new ConflictException(conflict.Message + " (the game has " + count + " now; its state is refreshed)", conflict.Body);
        }

        /// <summary>
        /// Give the game up: it ends as forfeit, scored as dying at once (R18), and a free game's seed is
        /// revealed. Only the game as this object last saw it is given up: ConflictException (the state
        /// refreshed) if it had moved on, or was over.
        /// </summary>
        public async Task<DealtGameState> ForfeitAsync(CancellationToken cancellation = default(CancellationToken))
        {
            var body = new JsonObject { { "expected_moves", (long)State.Moves.Count } };
            try
            {
                return Show((await client.SendAsync(HttpMethod.Post, PathOf(State.Id) + "/forfeit", body, cancellation)).Body);
            }
            catch (ConflictException conflict)
            {
                return await AfterConflictAsync(conflict, null, cancellation);
            }
        }

        /// <summary>Read the game again, e.g. to see a sealed daily's seed once its day is over, or the score once the run is verified.</summary>
        public async Task<DealtGameState> RefreshAsync(CancellationToken cancellation = default(CancellationToken))
        {
            return Show(await client.GetJsonAsync(PathOf(State.Id), cancellation));
        }

        /// <summary>
        /// Check the deal once the seed is revealed: SHA-256(server seed) must be the commitment shown from the
        /// start; with a client seed, the seed must be Commitments.DealtSeed(server seed, client seed); the seed
        /// must deal every position the server showed this object (room, health, weapon, kills, cards left);
        /// and the game's run, once judged, must hold the game's seed and moves and the local replay's verdict.
        /// </summary>
        public async Task<CommitmentCheck> VerifyCommitmentAsync(TimeSpan? interval = null, TimeSpan? timeout = null,
            CancellationToken cancellation = default(CancellationToken))
        {
            var state = State;
            if (state.Seed == null) return new CommitmentCheck { Revealed = false };
            var serverSeed = state.ClientSeed != null ? state.ServerSeed : state.Seed;
            var commitmentMatches = serverSeed != null && Commitments.CommitmentOf(serverSeed) == state.Commitment &&
                                    Commitments.DealtSeed(serverSeed, state.ClientSeed) == state.Seed;
            var mismatches = new List<Mismatch>();
            var verdict = Replayed(state, mismatches);
            var run = await client.WaitForVerdictAsync(state.RunId, interval, timeout, cancellation);
            var verdictMatches = verdict != null && verdict.Outcome == state.Status && run.Seed == state.Seed &&
                                 run.Moves != null && run.Moves.SequenceEqual(state.Moves) && run.Status == verdict.Status &&
                                 run.Outcome == verdict.Outcome && run.Score == verdict.Score && run.Health == verdict.Health;
            return new CommitmentCheck
            {
                Revealed = true,
                Ok = commitmentMatches && verdictMatches && mismatches.Count == 0,
                Seed = state.Seed,
                ServerSeed = serverSeed,
                CommitmentMatches = commitmentMatches,
                Verdict = verdict,
                Run = run,
                VerdictMatches = verdictMatches,
                Mismatches = mismatches.AsReadOnly(),
            };
        }

        /// <summary>The game replayed on the deal of its seed: the verdict (null if the deal refuses a move played), and where a position differs.</summary>
        private Verdict Replayed(DealtGameState state, List<Mismatch> found)
        {
            if (!Dealer.IsValidSeed(state.Seed))
            {
                found.Add(new Mismatch(0, "seed", state.Seed, null));
                return null;
            }
            var local = Game.Start(state.Seed, Variants.Parse(state.Variant));
            Compare(0, local, found);
            for (var i = 0; i < state.Moves.Count; i++)
            {
                try
                {
                    local.Play(state.Moves[i]);
                }
                catch (MoveException refused)
                {
                    found.Add(new Mismatch(i, "move", state.Moves[i], refused.Message));
                    return null;
                }
                Compare(i + 1, local, found);
            }
            return local.Verdict(state.Forfeited);
        }

        private void Compare(int count, Game local, List<Mismatch> found)
        {
            DealtGameState seen;
            if (!shown.TryGetValue(count, out seen)) return;
            Differ(found, count, "room", string.Join(" ", seen.Room), string.Join(" ", local.Room));
            Differ(found, count, "health", seen.Health.ToString(), local.Health.ToString());
            Differ(found, count, "weapon", seen.Weapon, local.Weapon);
            Differ(found, count, "kills", string.Join(" ", seen.Kills), string.Join(" ", local.Kills));
            Differ(found, count, "dungeonCount", seen.DungeonCount.ToString(), local.DungeonCount.ToString());
        }

        private static void Differ(List<Mismatch> found, int count, string field, string shown, string dealt)
        {
            if (shown != dealt) found.Add(new Mismatch(count, field, shown, dealt));
        }
    }
}
