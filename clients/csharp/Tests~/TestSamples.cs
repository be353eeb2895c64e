using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Threading.Tasks;

/// <summary>
/// The Unity and Godot samples, run as their engines run them, against a running service (SCOUNDREL_URL,
/// SCOUNDREL_TOKEN): each built against its stand-in (build.sh) and loaded from the build, its fields set
/// as the Inspector sets them, then Start (Unity, called by reflection as Unity calls it) or _Ready (Godot).
/// A sample is done when it logs the deal's check; what it logs is what a developer sees.
/// </summary>
public static class SampleTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);

    public static IEnumerable<KeyValuePair<string, Func<Task>>> All()
    {
        yield return new KeyValuePair<string, Func<Task>>("the Unity sample plays a dealt game to its end and the deal checks out",
            () => Play("Sample.Unity.dll", "UnityEngine.dll", "UnityEngine.Debug", "Start",
                new Dictionary<string, object> { { "baseUrl", Url() }, { "playerToken", Token() } }));
        yield return new KeyValuePair<string, Func<Task>>("the Godot sample plays a dealt game to its end and the deal checks out",
            () => Play("Sample.Godot.dll", "GodotSharp.dll", "Godot.GD", "_Ready",
                new Dictionary<string, object> { { "BaseUrl", Url() }, { "PlayerToken", Token() }, { "GameVariant", "easy" } }));
    }

    private static string Url()
    {
        return Environment.GetEnvironmentVariable("SCOUNDREL_URL");
    }

    private static string Token()
    {
        return Environment.GetEnvironmentVariable("SCOUNDREL_TOKEN");
    }

    private static Task Play(string sampleFile, string standInFile, string logType, string entry, Dictionary<string, object> inspector)
    {
        var built = Path.GetDirectoryName(typeof(SampleTests).Assembly.Location);
        var sample = Assembly.LoadFrom(Path.Combine(built, sampleFile)).GetType("PlayDealtGame", true);
        var log = (BlockingCollection<string>)Assembly.LoadFrom(Path.Combine(built, standInFile)).GetType(logType, true)
            .GetField("Logged").GetValue(null);
        var component = Activator.CreateInstance(sample);
        const BindingFlags members = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        foreach (var field in inspector)
        {
            var asField = sample.GetField(field.Key, members);
            if (asField != null) asField.SetValue(component, field.Value);
            else sample.GetProperty(field.Key, members).SetValue(component, field.Value);
        }
        sample.GetMethod(entry, members).Invoke(component, null);
        var lines = new List<string>();
        while (true)
        {
            string line;
            if (!log.TryTake(out line, Patience)) throw new Exception("nothing logged for " + Patience + " after:\n" + string.Join("\n", lines));
            lines.Add(line);
            if (line.StartsWith("error: ")) throw new Exception(string.Join("\n", lines));
            if (line.StartsWith("log: The deal checks out")) break;
        }
        Assert.True(lines[0].StartsWith("log: Dealt game "), "the deal first: " + lines[0]);
        Assert.True(lines.Exists(line => line.StartsWith("log: Game over: ")), "the game's end logged");
        Console.WriteLine("  " + lines[lines.Count - 2].Substring(5) + "; " + lines[lines.Count - 1].Substring(5));
        return Task.FromResult(0);
    }
}
