using System;
using System.Collections.Generic;
using System.Linq;

namespace Scoundrel.Referee
{
    /// <summary>A move that <see cref="Game.Play"/> refuses; the game is left as it was.</summary>
    public class MoveException : Exception
    {
        /// <summary>A rejection code, invalid_notation, or for a dealt game room_not_dealt or too_many_moves.</summary>
        public string Code { get; }
        /// <summary>The RULES.md ruling, or null.</summary>
        public string Ruling { get; }
        /// <summary>The move's 0-based index in the whole game.</summary>
        public int MoveIndex { get; }
        public string Move { get; }

        public MoveException(string message, string code, string ruling, int moveIndex, string move, Exception cause = null)
            : base(message, cause)
        {
            Code = code;
            Ruling = ruling;
            MoveIndex = moveIndex;
            Move = move;
        }
    }

    /// <summary>
    /// A well-formed move the rules forbid: Code is a rejection code, Ruling the RULES.md id, Message the
    /// referee's own words ("Move 7: …"). A dealt game's move refused by the server has the ApiException
    /// of that answer as InnerException.
    /// </summary>
    public sealed class IllegalMoveException : MoveException
    {
        public IllegalMoveException(RuleError error, string move, Exception cause = null)
            : base(error.Message, error.Code, error.Ruling, error.MoveIndex, move, cause)
        {
        }

        /// <summary>The error of the rejected verdict this move would earn.</summary>
        public RuleError Error
        {
            get { return new RuleError(Code, MoveIndex, Message, Ruling); }
        }
    }

    /// <summary>A string outside the notation (R2): code invalid_notation; a submission holding it is invalid.</summary>
    public sealed class NotationException : MoveException
    {
        public NotationException(string move, int moveIndex)
            : base("Move " + (moveIndex + 1) + ": " + Json.Write(move) + " is not a move in the notation: use flee, H<v>, D<v>, " +
                   "or S<v>/C<v> followed by w (weapon) or b (barehanded) (R2).", "invalid_notation", "R2", moveIndex, move)
        {
        }
    }

    /// <summary>
    /// A game in progress, dealt from a seed: what a game client plays on. It deals the dungeon the
    /// referee will deal, refuses an illegal move before anything changes, and gives the verdict the
    /// referee would give.
    /// </summary>
    public sealed class Game
    {
        /// <summary>A game's status until it is over (then won or lost).</summary>
        public const string Playing = "playing";

        private readonly GameState state;
        private readonly List<string> moves = new List<string>();

        public string Seed { get; }
        public Variant Variant { get; }

        private Game(string seed, Variant variant, GameState state)
        {
            Seed = seed;
            Variant = variant;
            this.state = state;
        }

        /// <summary>Deal the dungeon for the seed and open the first room. ArgumentException for an invalid seed.</summary>
        public static Game Start(string seed, Variant variant = Variant.Classic)
        {
            return new Game(seed, variant, Rules.Start(seed));
        }

        /// <summary>Play one move in notation and return its effect. NotationException or IllegalMoveException change nothing.</summary>
        public Effect Play(string notation)
        {
            var index = moves.Count;
            var move = Move.Parse(notation);
            if (move == null) throw new NotationException(notation, index);
            var violation = Rules.Check(state, move, Variant);
            if (violation != null) throw new IllegalMoveException(RuleError.Of(violation, index), notation);
            var effect = Rules.Apply(state, move, Variant);
            moves.Add(notation);
            return effect;
        }

        /// <summary>Every legal move now, in room order, flee last (empty once the game is over).</summary>
        public List<string> LegalMoves()
        {
            return Rules.LegalMoves(state, Variant);
        }

        public bool IsLegal(string notation)
        {
            var move = Move.Parse(notation);
            return move != null && Rules.Check(state, move, Variant) == null;
        }

        /// <summary>
        /// The verdict the referee would give for the moves played so far; with forfeit, for a dealt game
        /// given up after them (R18: an unfinished game is verified with outcome forfeit instead of rejected
        /// as incomplete; a finished one keeps its outcome).
        /// </summary>
        public Verdict Verdict(bool forfeit = false)
        {
            return Judge(state, moves.Count, forfeit);
        }

        internal static Verdict Judge(GameState state, int count, bool forfeit)
        {
            if (state.IsLost) return Scoundrel.Referee.Verdict.OfVerified(Scoundrel.Referee.Verdict.Lost, state.Score(), state.Health, count);
            if (state.IsWon) return Scoundrel.Referee.Verdict.OfVerified(Scoundrel.Referee.Verdict.Won, state.Score(), state.Health, count);
            // R18: only a game not yet over can be forfeited; a finished one keeps its outcome.
            if (forfeit) return Scoundrel.Referee.Verdict.OfVerified(Scoundrel.Referee.Verdict.Forfeit, state.ForfeitScore(), state.Health, count);
            return Scoundrel.Referee.Verdict.OfRejected(new RuleError(RejectionCodes.Incomplete, count,
                "The move list ends after " + count + " move" + (count == 1 ? "" : "s") + " but the game is not over; " +
                "an unfinished game is never scored (R17).", "R17"));
        }

        /// <summary>{seed, moves, variant}, ready for RefereeClient.SubmitRunAsync.</summary>
        public Submission ToSubmission()
        {
            return new Submission(Seed, moves, Variant.Name());
        }

        /// <summary>A copy of the whole position (room, dungeon, health, weapon, kills, …).</summary>
        public GameState Snapshot()
        {
            return state.Copy();
        }

        public IReadOnlyList<string> Moves
        {
            get { return moves.ToList().AsReadOnly(); }
        }

        /// <summary>won, lost, or playing.</summary>
        public string Status
        {
            get { return Won ? Scoundrel.Referee.Verdict.Won : Lost ? Scoundrel.Referee.Verdict.Lost : Playing; }
        }

        public int Health
        {
            get { return state.Health; }
        }

        /// <summary>The equipped weapon's card, or null.</summary>
        public string Weapon
        {
            get { return state.Weapon; }
        }

        /// <summary>The monsters the equipped weapon killed, oldest first (R10).</summary>
        public IReadOnlyList<string> Kills
        {
            get { return state.Kills; }
        }

        public string LastKill
        {
            get { return state.LastKill; }
        }

        /// <summary>The room in R4 order: the carried-over card first.</summary>
        public IReadOnlyList<string> Room
        {
            get { return state.Room; }
        }

        /// <summary>Cards left face down in the dungeon.</summary>
        public int DungeonCount
        {
            get { return state.DungeonCount; }
        }

        public bool Over
        {
            get { return state.IsOver; }
        }

        public bool Won
        {
            get { return state.IsWon; }
        }

        public bool Lost
        {
            get { return state.IsLost; }
        }

        /// <summary>The score of a finished game (R15, R16), null while it is still going.</summary>
        public int? Score
        {
            get { return state.IsOver ? (int?)state.Score() : null; }
        }
    }

    /// <summary>The referee's judgement of a whole submission, in one call, as the service's workers give it.</summary>
    public static class Replay
    {
        /// <summary>
        /// Replay the moves on the dungeon dealt from the seed and judge the game: verified, rejected (with
        /// incomplete at move_index = the number of moves for an unfinished game) or, for malformed input,
        /// invalid with the service schema's field errors. It never throws for bad input. A submission is
        /// never a forfeit (R18).
        /// </summary>
        public static Verdict Judge(string seed, IReadOnlyList<string> moves, string variant = "classic")
        {
            Variant parsedVariant;
            var parsed = Submission.ParseMoves(moves);
            if (parsed == null || !Dealer.IsValidSeed(seed) || !Variants.TryParse(variant, out parsedVariant))
                return Verdict.OfInvalid(Submission.ErrorsOf(new Submission(seed, moves, variant).ToJson()));
            return JudgeWellFormed(seed, parsed, parsedVariant);
        }

        /// <summary>A submission given as a parsed JSON value, judged as the service judges one: any value at all.</summary>
        public static Verdict Judge(object submission)
        {
            var errors = Submission.ErrorsOf(submission);
            if (errors != null) return Verdict.OfInvalid(errors);
            var run = (JsonObject)submission;
            var variant = run.ContainsKey("variant") ? (string)run["variant"] : "classic";
            return JudgeWellFormed(run.GetString("seed"), Submission.ParseMoves(run.GetStrings("moves")), Variants.Parse(variant));
        }

        /// <summary>The replay itself: one state, moves applied in place, no effect recorded.</summary>
        private static Verdict JudgeWellFormed(string seed, Move[] moves, Variant variant)
        {
            var state = Rules.Start(seed);
            for (var i = 0; i < moves.Length; i++)
            {
                var violation = Rules.Check(state, moves[i], variant);
                if (violation != null) return Verdict.OfRejected(RuleError.Of(violation, i));
                Rules.Play(state, moves[i], null);
            }
            return Game.Judge(state, moves.Length, false);
        }
    }
}
