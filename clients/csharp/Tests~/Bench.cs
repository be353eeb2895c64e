using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using Scoundrel.Referee;

/// <summary>
/// The C# engine's side of bench/csharp_engine.py, one thread:
///
///     mono build~/bench.exe replay CORPUS ROUNDS   replays and deals a second over the corpus ([[seed, moves, variant]…]),
///                                                 timed as bench/engine.py times the Python engine; one JSON line
///     mono build~/bench.exe deal                   the deal of each seed read from stdin, one line each
/// </summary>
public static class Bench
{
    private const int Chunk = 10; // games timed together; the best of the rounds counts for each chunk

    public static int Main(string[] args)
    {
        if (args.Length == 3 && args[0] == "replay") return Replays(args[1], int.Parse(args[2]));
        if (args.Length == 1 && args[0] == "deal") return Deals();
        Console.Error.WriteLine("usage: bench.exe replay CORPUS ROUNDS | bench.exe deal");
        return 2;
    }

    private sealed class Run
    {
        public string Seed;
        public IReadOnlyList<string> Moves;
        public string Variant;
    }

    private static int Replays(string corpusFile, int rounds)
    {
        var corpus = ((List<object>)Json.Parse(File.ReadAllText(corpusFile))).Cast<List<object>>().Select(game => new Run
        {
            Seed = (string)game[0],
            Moves = ((List<object>)game[1]).Cast<string>().ToList(),
            Variant = (string)game[2],
        }).ToList();
        var outcomes = corpus.Select(game => Replay.Judge(game.Seed, game.Moves, game.Variant).Outcome).ToList();
        var replaySeconds = BestTime(corpus, game => Replay.Judge(game.Seed, game.Moves, game.Variant), rounds);
        var dealSeconds = BestTime(corpus, game => Dealer.Deal(game.Seed), rounds);
        Console.WriteLine(Json.Write(new JsonObject
        {
            { "replays_per_second", corpus.Count / replaySeconds },
            { "deals_per_second", corpus.Count / dealSeconds },
            { "outcomes", outcomes },
        }));
        return 0;
    }

    /// <summary>The summed best time of each chunk, as timeit's minimum: on a shared machine a whole pass is rarely left alone.</summary>
    private static double BestTime(List<Run> corpus, Action<Run> work, int rounds)
    {
        var total = 0.0;
        var clock = new Stopwatch();
        for (var start = 0; start < corpus.Count; start += Chunk)
        {
            var chunk = corpus.Skip(start).Take(Chunk).ToList();
            var best = double.MaxValue;
            for (var round = 0; round < rounds; round++)
            {
                clock.Restart();
                foreach (var game in chunk) work(game);
                best = Math.Min(best, clock.Elapsed.TotalSeconds);
            }
            total += best;
        }
        return total;
    }

    private static int Deals()
    {
        var output = new StreamWriter(Console.OpenStandardOutput()) { AutoFlush = false };
        string seed;
        while ((seed = Console.In.ReadLine()) != null) output.WriteLine(string.Join(" ", Dealer.Deal(seed)));
        output.Flush();
        return 0;
    }
}
