using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Scoundrel.Referee;

/// <summary>
/// The engine against the Python engine's own answers: every game of the JavaScript client's cross-check
/// data (tests/data/crosscheck.json, written from the Python engine) and the deal vectors
/// (tests/data/deal-vectors.json); then JSON, the commitment, and the netstandard 2.0 surface.
/// </summary>
public static class EngineTests
{
    private static string repository;

    private static JsonObject Data(string name)
    {
        return (JsonObject)Json.Parse(File.ReadAllText(Path.Combine(repository, "tests", "data", name)));
    }

    private static IEnumerable<JsonObject> Games()
    {
        return Data("crosscheck.json").GetList("games").Cast<JsonObject>();
    }

    public static IEnumerable<KeyValuePair<string, Func<Task>>> All(string root)
    {
        repository = root;
        var checks = new Dictionary<string, Action>
        {
            { "the cross-check data was written for this ruleset and engine version", DataIsForThisEngine },
            { "the cross-check data covers wins, losses and every rejection code in all three variants", DataCoversEveryOutcome },
            { "Replay.Judge gives Python's verdict for every cross-check game", JudgeGivesPythonsVerdicts },
            { "Game gives the same verdict move by move, and an illegal move changes nothing", GameMoveByMove },
            { "malformed submissions get the service schema's field errors", MalformedSubmissions },
            { "Move.Parse knows the 71 strings of the notation (R2) and nothing else", ParseKnowsTheNotation },
            { "deal-v1 deals every vector of deal-vectors.json", DealVectors },
            { "a deal is a permutation of the 44 cards of R1, and seeds are case-sensitive", DealIsAPermutation },
            { "an invalid seed is refused with a clear error; the longest valid one deals", InvalidSeeds },
            { "the commitment is the hex SHA-256 of the seed (FIPS 180-2 vector); a client seed derives the seed", Commitment },
            { "the deal's SHA-256 is the framework's on messages of 0 to 300 bytes", DealHashIsSha256 },
            { "JSON: the cross-check file read, written and read again is the same value; bad JSON is refused", JsonRoundTrip },
            { "every type the library uses is one netstandard 2.0 has", NetstandardSurface },
        };
        return checks.Select(check => new KeyValuePair<string, Func<Task>>(check.Key, () =>
        {
            check.Value();
            return Task.FromResult(0);
        }));
    }

    private static void DataIsForThisEngine()
    {
        var data = Data("crosscheck.json");
        Assert.Equal(EngineInfo.Ruleset, data.GetString("ruleset"), "ruleset");
        Assert.Equal(EngineInfo.EngineVersion, data.GetString("engine"), "engine");
    }

    private static void DataCoversEveryOutcome()
    {
        var seen = new HashSet<string>(Games().Select(game =>
        {
            var verdict = game.GetObject("verdict");
            return verdict.GetString("outcome") ?? verdict.GetObject("error").GetString("code");
        }));
        foreach (var kind in new[] { "won", "lost" }.Concat(RejectionCodes.All)) Assert.True(seen.Contains(kind), "no " + kind + " game in the data");
        Assert.Equal("classic easy hard", string.Join(" ", Games().Select(game => game.GetString("variant")).Distinct().OrderBy(v => v)), "variants");
    }

    private static void JudgeGivesPythonsVerdicts()
    {
        var count = 0;
        foreach (var game in Games())
        {
            var verdict = Replay.Judge(game.GetString("seed"), game.GetStrings("moves"), game.GetString("variant"));
            Assert.JsonEqual(game.Get("verdict"), verdict.ToJson(), game.GetString("seed") + " " + game.GetString("variant"));
            count++;
        }
        Assert.True(count > 700, "only " + count + " games");
    }

    private static void GameMoveByMove()
    {
        foreach (var fixture in Games())
        {
            var where = fixture.GetString("seed") + " " + fixture.GetString("variant");
            var verdict = fixture.GetObject("verdict");
            var game = Game.Start(fixture.GetString("seed"), Variants.Parse(fixture.GetString("variant")));
            IllegalMoveException refused = null;
            foreach (var notation in fixture.GetStrings("moves"))
            {
                var legal = game.LegalMoves();
                var before = game.Snapshot().ToString();
                try
                {
                    game.Play(notation);
                    Assert.True(legal.Contains(notation), where + ": " + notation + " was played but not listed as legal");
                }
                catch (IllegalMoveException illegal)
                {
                    Assert.True(!legal.Contains(notation), where + ": " + notation + " was refused but listed as legal");
                    Assert.Equal(before, game.Snapshot().ToString(), where + ": the state after a refused move");
                    refused = illegal;
                    break;
                }
            }
            var error = verdict.GetObject("error");
            if (error != null && error.GetString("code") != RejectionCodes.Incomplete)
            {
                Assert.True(refused != null, where + ": Python rejected move " + error.GetInt("move_index") + ", C# played it");
                Assert.JsonEqual(error, refused.Error.ToJson(), where);
            }
            else
            {
                Assert.True(refused == null, where + ": refused " + (refused == null ? "" : refused.Message));
                Assert.JsonEqual(verdict, game.Verdict().ToJson(), where);
                Assert.Equal(verdict.GetString("status") == Verdict.Verified, game.Over, where + ": over");
                if (game.Over) Assert.Equal(0, game.LegalMoves().Count, where + ": legal moves once over");
            }
        }
    }

    private static void MalformedSubmissions()
    {
        foreach (var malformed in Data("crosscheck.json").GetList("malformed").Cast<JsonObject>())
        {
            var submission = malformed.Get("submission");
            var what = Json.Write(submission);
            Assert.JsonEqual(malformed.Get("errors"), Submission.ErrorsOf(submission), what.Substring(0, Math.Min(80, what.Length)));
            Assert.JsonEqual(new JsonObject { { "status", "invalid" }, { "errors", malformed.Get("errors") } }, Replay.Judge(submission).ToJson(), what);
        }
    }

    private static void ParseKnowsTheNotation()
    {
        var notation = new HashSet<string>(Move.AllNotations);
        Assert.Equal(71, notation.Count, "notations");
        var tried = new List<string> { "flee", "Flee", "flee ", "fle", "", "w", "S", "10", "S8ww", "S10wb" };
        foreach (var suit in new[] { "S", "C", "D", "H", "X", "s" })
            foreach (var value in Enumerable.Range(0, 16).Select(v => v.ToString()).Concat(new[] { "02", "010", "-2", "+2", " 2" }))
                foreach (var mode in new[] { "", "w", "b", "x" })
                    tried.Add(suit + value + mode);
        foreach (var candidate in tried)
        {
            var move = Move.Parse(candidate);
            Assert.Equal(notation.Contains(candidate), move != null, "parsed " + candidate);
            if (move != null) Assert.Equal(candidate, move.Notation, "the notation of " + candidate);
        }
        Assert.True(notation.All(n => Move.Parse(n) != null), "every notation parses");
    }

    private static void DealVectors()
    {
        var vectors = Data("deal-vectors.json");
        Assert.True(vectors.Count >= 10 && vectors.ContainsKey("abc"), "the shared file holds the RULES.md vector and more");
        foreach (var vector in vectors)
            Assert.Equal((string)vector.Value, string.Join(" ", Dealer.Deal(vector.Key)), "seed " + vector.Key);
    }

    private static void DealIsAPermutation()
    {
        var dungeon = Dealer.Deal("permutation");
        Assert.Equal(44, dungeon.Count, "cards");
        Assert.Equal(string.Join(" ", Cards.CanonicalOrder.OrderBy(c => c, StringComparer.Ordinal)),
            string.Join(" ", dungeon.OrderBy(c => c, StringComparer.Ordinal)), "the cards of R1");
        Assert.True(string.Join(" ", Dealer.Deal("abc")) != string.Join(" ", Dealer.Deal("ABC")), "abc and ABC deal alike");
    }

    private static void InvalidSeeds()
    {
        foreach (var seed in new[] { "", "a b", "é", new string('x', 65), "a/b", null })
        {
            Assert.True(!Dealer.IsValidSeed(seed), "valid: " + seed);
            var refused = Assert.Throws<ArgumentException>(() => Dealer.Deal(seed), "seed " + seed);
            Assert.True(refused.Message.Contains("invalid seed") && refused.Message.Contains(EngineInfo.SeedRule), refused.Message);
        }
        Assert.Equal(44, Dealer.Deal(new string('x', 64)).Count, "the longest seed");
    }

    private static void Commitment()
    {
        Assert.Equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", Commitments.CommitmentOf("abc"), "SHA-256 of abc");
        // RFC 4231 test case 2 (key "Jefe"), as base64url without padding
        Assert.Equal("W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM", Commitments.DealtSeed("Jefe", "what do ya want for nothing?"), "HMAC");
        Assert.Equal("abc", Commitments.DealtSeed("abc", null), "no client seed");
        var drawn = Commitments.DrawClientSeed();
        Assert.True(drawn.Length == 22 && Dealer.IsValidSeed(drawn), "a drawn client seed is a seed: " + drawn);
    }

    private static void DealHashIsSha256()
    {
        var random = new Random(49);
        var digest = new uint[8];
        var block = new uint[16];
        using (var framework = System.Security.Cryptography.SHA256.Create())
        {
            for (var length = 0; length <= 300; length++)
            {
                var message = new byte[length];
                random.NextBytes(message);
                Scoundrel.Referee.Sha256.Hash(message, length, digest, block);
                var expected = framework.ComputeHash(message);
                var words = Enumerable.Range(0, 8).Select(i => (uint)(expected[4 * i] << 24 | expected[4 * i + 1] << 16 | expected[4 * i + 2] << 8 | expected[4 * i + 3]));
                Assert.Equal(string.Join(" ", words), string.Join(" ", digest), length + " bytes");
            }
        }
    }

    private static void JsonRoundTrip()
    {
        var text = File.ReadAllText(Path.Combine(repository, "tests", "data", "crosscheck.json"));
        var read = Json.Parse(text);
        Assert.JsonEqual(read, Json.Parse(Json.Write(read)), "crosscheck.json");
        Assert.Equal("{\"s\":\"a\\\"b\\\\c\\n\\u0001é\",\"n\":[-1,2.5,1E+300,true,null]}",
            Json.Write(Json.Parse("{\"s\": \"a\\\"b\\\\c\\n\\u0001\\u00e9\", \"n\": [-1, 2.5, 1e300, true, null]}")), "escapes and numbers");
        foreach (var bad in new[] { "", "{", "[1,]", "{\"a\" 1}", "01x", "\"\\x\"", "nul", "[1] 2" })
            Assert.Throws<JsonFormatException>(() => Json.Parse(bad), "bad JSON " + bad);
    }

    /// <summary>
    /// Mono's mcs compiles against the whole .NET Framework, so the build alone would not notice a type
    /// Unity's netstandard 2.0 profile lacks: every type the library's metadata refers to must be one the
    /// netstandard facade forwards (its members are not checked; the library uses long-standing ones).
    /// </summary>
    private static void NetstandardSurface()
    {
        var framework = Path.GetDirectoryName(typeof(object).Assembly.Location);
        var netstandard = Assembly.LoadFrom(Path.Combine(framework, "Facades", "netstandard.dll"));
        var library = typeof(Game).Assembly.ManifestModule;
        var missing = new List<string>();
        var checkedTypes = 0;
        for (var row = 1;; row++)
        {
            Type referenced;
            try
            {
                referenced = library.ResolveType(0x01000000 | row); // a TypeRef row of the metadata
            }
            catch (ArgumentOutOfRangeException)
            {
                break;
            }
            checkedTypes++;
            var name = referenced.IsNested ? referenced.DeclaringType.FullName : referenced.FullName;
            if (netstandard.GetType(name) == null) missing.Add(name);
        }
        Assert.True(checkedTypes > 50, "only " + checkedTypes + " type references read");
        Assert.Equal("", string.Join(", ", missing), "types outside netstandard 2.0");
    }
}
