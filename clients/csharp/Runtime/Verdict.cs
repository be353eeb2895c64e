namespace Scoundrel.Referee
{
    /// <summary>The error of a rejected run: a rejection code, the move's 0-based index, the referee's sentence, the ruling.</summary>
    public sealed class RuleError
    {
        public string Code { get; }
        public int MoveIndex { get; }
        public string Message { get; }
        public string Ruling { get; }

        public RuleError(string code, int moveIndex, string message, string ruling)
        {
            Code = code;
            MoveIndex = moveIndex;
            Message = message;
            Ruling = ruling;
        }

        /// <summary>The error of a rejected run, as the Python engine's RuleError.from_violation words it.</summary>
        public static RuleError Of(Violation violation, int moveIndex)
        {
            return new RuleError(violation.Code, moveIndex, "Move " + (moveIndex + 1) + ": " + violation.Message, violation.Ruling);
        }

        /// <summary>The error of an API answer, {code, move_index, message, ruling}; null for anything else.</summary>
        public static RuleError FromJson(JsonObject error)
        {
            if (error == null || error.GetString("code") == null || error.GetInt("move_index") == null) return null;
            return new RuleError(error.GetString("code"), error.GetInt("move_index").Value, error.GetString("message"), error.GetString("ruling"));
        }

        /// <summary>{code, move_index, message, ruling}, as the API and the engine answer it.</summary>
        public JsonObject ToJson()
        {
            return new JsonObject { { "code", Code }, { "move_index", (long)MoveIndex }, { "message", Message }, { "ruling", Ruling } };
        }
    }

    /// <summary>
    /// The one answer a replay gives, in the JSON shape of the Python engine's Verdict.to_dict() and of
    /// the HTTP API: verified (outcome, score, health, moves), rejected (error) or invalid (field errors).
    /// </summary>
    public sealed class Verdict
    {
        public const string Verified = "verified";
        public const string Rejected = "rejected";
        public const string Invalid = "invalid";
        public const string Won = "won";
        public const string Lost = "lost";
        /// <summary>R18: a dealt game its player gave up, or left idle.</summary>
        public const string Forfeit = "forfeit";

        public string Status { get; private set; }
        /// <summary>won, lost or forfeit for a verified game; else null.</summary>
        public string Outcome { get; private set; }
        public int? Score { get; private set; }
        public int? Health { get; private set; }
        /// <summary>The number of moves of a verified game.</summary>
        public int? Moves { get; private set; }
        public RuleError Error { get; private set; }
        /// <summary>The field errors of an invalid submission, as the service's schema words them.</summary>
        public JsonObject Errors { get; private set; }

        private Verdict()
        {
        }

        public static Verdict OfVerified(string outcome, int score, int health, int moves)
        {
            return new Verdict { Status = Verified, Outcome = outcome, Score = score, Health = health, Moves = moves };
        }

        public static Verdict OfRejected(RuleError error)
        {
            return new Verdict { Status = Rejected, Error = error };
        }

        public static Verdict OfInvalid(JsonObject errors)
        {
            return new Verdict { Status = Invalid, Errors = errors };
        }

        public JsonObject ToJson()
        {
            if (Status == Invalid) return new JsonObject { { "status", Status }, { "errors", Errors } };
            var json = new JsonObject { { "status", Status } };
            if (Status == Verified)
            {
                json.Add("outcome", Outcome);
                json.Add("score", (long)Score.Value);
                json.Add("health", (long)Health.Value);
                json.Add("moves", (long)Moves.Value);
            }
            else
            {
                json.Add("error", Error.ToJson());
            }
            json.Add("ruleset", EngineInfo.Ruleset);
            json.Add("engine", EngineInfo.EngineVersion);
            return json;
        }

        public override string ToString()
        {
            return Json.Write(ToJson());
        }
    }
}
