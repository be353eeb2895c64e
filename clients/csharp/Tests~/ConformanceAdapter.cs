using System;
using System.Collections.Generic;
using System.Linq;
using Scoundrel.Referee;

/// <summary>
/// The C# client's engine behind the conformance protocol (docs/conformance.md), run by
/// clients/csharp/conformance-adapter: one JSON request a line on stdin ({case, seed, variant, moves,
/// forfeit}), one JSON answer a line on stdout ({case, states}, with forfeit_score when asked, illegal
/// when the engine refuses a move). The answers come from the library's own rules, so the check is of
/// the code a game runs.
/// </summary>
public static class ConformanceAdapter
{
    private static JsonObject StateView(GameState state, Variant variant)
    {
        var over = state.IsOver;
        var legal = over ? new List<string>() : Rules.LegalMoves(state, variant);
        legal.Sort(StringComparer.Ordinal);
        return new JsonObject
        {
            { "legal", legal },
            { "health", (long)state.Health },
            { "weapon", state.Weapon },
            { "last_kill", state.LastKill },
            { "room", state.Room },
            { "dungeon", (long)state.DungeonCount },
            { "over", over },
            { "score", over ? (object)(long)state.Score() : null },
        };
    }

    private static JsonObject Answer(JsonObject request)
    {
        var variant = Variants.Parse(request.GetString("variant"));
        var state = Rules.Start(request.GetString("seed"));
        var states = new List<object> { StateView(state, variant) };
        var reply = new JsonObject { { "case", request.Get("case") }, { "states", states } };
        var moves = request.GetStrings("moves");
        for (var index = 0; index < moves.Count; index++)
        {
            try
            {
                Rules.Apply(state, Move.Parse(moves[index]), variant);
            }
            catch (RuleViolationException illegal)
            {
                reply["illegal"] = new JsonObject { { "index", (long)index }, { "code", illegal.Violation.Code } };
                return reply;
            }
            states.Add(StateView(state, variant));
        }
        if (request.GetBool("forfeit")) reply["forfeit_score"] = (long)state.ForfeitScore();
        return reply;
    }

    public static void Main()
    {
        var output = Console.Out;
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            if (line.Trim().Length == 0) continue;
            output.WriteLine(Json.Write(Answer((JsonObject)Json.Parse(line))));
            output.Flush();
        }
    }
}
