using System.Collections.Generic;
using System.Linq;

namespace Scoundrel.Referee
{
    /// <summary>
    /// A run to submit: {seed, moves, variant}. <see cref="ErrorsOf"/> holds any JSON value to the checks of
    /// the service's submission schema (schemas/submission.py), with its field names and messages, so a
    /// game can catch an invalid submission before sending it.
    /// </summary>
    public sealed class Submission
    {
        /// <summary>RULES.md: a longer move list is invalid input.</summary>
        public const int MaxMoves = 200;
        public const string MoveMessage =
            "Not a move in the notation: use flee, H<v>, D<v>, or S<v>/C<v> followed by w (weapon) or b (barehanded) (R2).";

        private const string Missing = "Missing data for required field.";
        private const string NullField = "Field may not be null.";
        private const string NotAString = "Not a valid string.";
        private static readonly string[] Fields = { "seed", "moves", "variant" };

        public string Seed { get; }
        public IReadOnlyList<string> Moves { get; }
        public string Variant { get; }

        public Submission(string seed, IEnumerable<string> moves, string variant = "classic")
        {
            Seed = seed;
            Moves = moves == null ? null : moves.ToList().AsReadOnly();
            Variant = variant;
        }

        /// <summary>{"seed", "moves", "variant"}, the body of POST /v1/runs.</summary>
        public JsonObject ToJson()
        {
            return new JsonObject { { "seed", Seed }, { "moves", Moves == null ? null : Moves.Cast<object>().ToList() }, { "variant", Variant } };
        }

        /// <summary>Field-level errors of this submission, or null when it is well-formed.</summary>
        public JsonObject Errors()
        {
            return ErrorsOf(ToJson());
        }

        /// <summary>
        /// Field-level errors of a submission given as a parsed JSON value (<see cref="Json.Parse"/>), or null
        /// when it is well-formed. Keys: seed, moves (a list of messages, or an object of move index →
        /// messages), variant, an unknown field's own name, or _schema when the value is not an object.
        /// </summary>
        public static JsonObject ErrorsOf(object submission)
        {
            var run = submission as JsonObject;
            if (run == null) return new JsonObject { { "_schema", Messages("Invalid input type.") } };
            var errors = new JsonObject();
            var found = new Dictionary<string, object>
            {
                { "seed", SeedErrors(run) },
                { "moves", MovesErrors(run) },
                { "variant", VariantErrors(run) },
            };
            foreach (var field in Fields)
                if (found[field] != null) errors[field] = found[field];
            foreach (var field in run.Keys)
                if (!Fields.Contains(field)) errors[field] = Messages("Unknown field.");
            return errors.Count > 0 ? errors : null;
        }

        /// <summary>
        /// The moves parsed, or null when they are not 1–200 strings of the notation (MovesErrors says why):
        /// a replay parses its moves once, here.
        /// </summary>
        internal static Move[] ParseMoves(IReadOnlyList<string> moves)
        {
            if (moves == null || moves.Count == 0 || moves.Count > MaxMoves) return null;
            var parsed = new Move[moves.Count];
            for (var i = 0; i < parsed.Length; i++)
                if ((parsed[i] = Move.Parse(moves[i])) == null) return null;
            return parsed;
        }

        private static List<object> Messages(string message)
        {
            return new List<object> { message };
        }

        private static object SeedErrors(JsonObject run)
        {
            if (!run.ContainsKey("seed")) return Messages(Missing);
            var seed = run["seed"];
            if (seed == null) return Messages(NullField);
            if (!(seed is string)) return Messages(NotAString);
            return Dealer.IsValidSeed((string)seed) ? null : Messages(EngineInfo.SeedMessage);
        }

        private static object MovesErrors(JsonObject run)
        {
            if (!run.ContainsKey("moves")) return Messages(Missing);
            var moves = run["moves"];
            if (moves == null) return Messages(NullField);
            var list = moves as List<object>;
            if (list == null) return Messages("Moves must be a list of move strings.");
            if (list.Count == 0) return Messages("Moves must hold at least one move.");
            if (list.Count > MaxMoves)
                return Messages("At most " + MaxMoves + " moves are allowed (a full game needs at most 44 plays plus avoids).");
            var byIndex = new JsonObject();
            for (var i = 0; i < list.Count; i++)
            {
                var move = list[i] as string;
                if (move == null) byIndex[i.ToString()] = Messages("Not a string.");
                else if (Move.Parse(move) == null) byIndex[i.ToString()] = Messages(MoveMessage);
            }
            return byIndex.Count > 0 ? byIndex : null;
        }

        private static object VariantErrors(JsonObject run)
        {
            if (!run.ContainsKey("variant")) return null; // defaults to classic
            var variant = run["variant"];
            if (variant == null) return Messages(NullField);
            if (!(variant is string)) return Messages(NotAString);
            Scoundrel.Referee.Variant parsed;
            return Variants.TryParse((string)variant, out parsed) ? null : Messages("Must be one of: " + string.Join(", ", Variants.Names) + ".");
        }
    }
}
