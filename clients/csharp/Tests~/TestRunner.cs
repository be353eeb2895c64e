using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Scoundrel.Referee;

/// <summary>
/// The C# client's tests, a runner of their own (nothing to download): each check is a named function
/// that throws on failure; every one is run and reported as "ok - name" or "not ok - name: why", and
/// the exit status is 1 if any failed.
///
///     mono build~/tests.exe engine REPOSITORY     the engine, the deal, JSON, the netstandard surface
///     mono build~/tests.exe api                   the API client against a running service (TestApi.cs says
///                                                which environment it reads)
///     mono build~/tests.exe samples               the Unity and Godot samples against a running service
/// </summary>
public static class TestRunner
{
    public static int Main(string[] args)
    {
        IEnumerable<KeyValuePair<string, Func<Task>>> checks;
        switch (args.Length > 0 ? args[0] : "")
        {
            case "engine":
                checks = EngineTests.All(args[1]);
                break;
            case "api":
                checks = ApiTests.All();
                break;
            case "samples":
                checks = SampleTests.All();
                break;
            default:
                Console.Error.WriteLine("usage: tests.exe engine REPOSITORY | tests.exe api | tests.exe samples");
                return 2;
        }
        var failed = 0;
        foreach (var check in checks)
        {
            try
            {
                check.Value().GetAwaiter().GetResult();
                Console.WriteLine("ok - " + check.Key);
            }
            catch (Exception error)
            {
                failed++;
                Console.WriteLine("not ok - " + check.Key + ": " + error);
            }
        }
        Console.WriteLine(failed == 0 ? "all passed" : failed + " failed");
        return failed == 0 ? 0 : 1;
    }
}

/// <summary>What a check asserts, each failing with what came and what was expected.</summary>
public static class Assert
{
    public static void True(bool condition, string what)
    {
        if (!condition) throw new Exception(what);
    }

    public static void Equal<T>(T expected, T actual, string what = "")
    {
        if (!EqualityComparer<T>.Default.Equals(expected, actual))
            throw new Exception(what + ": expected " + Show(expected) + ", got " + Show(actual));
    }

    /// <summary>Two parsed JSON values alike: numbers by value, objects whatever their key order.</summary>
    public static void JsonEqual(object expected, object actual, string what = "")
    {
        if (!SameJson(expected, actual)) throw new Exception(what + ": expected " + Json.Write(expected) + ", got " + Json.Write(actual));
    }

    public static bool SameJson(object a, object b)
    {
        if (a == null || b == null) return a == null && b == null;
        if (IsNumber(a) && IsNumber(b)) return Convert.ToDouble(a) == Convert.ToDouble(b);
        var objectA = a as IDictionary;
        var objectB = b as IDictionary;
        if (objectA != null || objectB != null)
        {
            if (objectA == null || objectB == null || objectA.Count != objectB.Count) return false;
            foreach (DictionaryEntry member in objectA)
                if (!objectB.Contains(member.Key) || !SameJson(member.Value, objectB[member.Key])) return false;
            return true;
        }
        if (a is string || b is string || a is bool || b is bool) return a.Equals(b);
        var listA = ((IEnumerable)a).Cast<object>().ToList();
        var listB = ((IEnumerable)b).Cast<object>().ToList();
        return listA.Count == listB.Count && listA.Zip(listB, SameJson).All(same => same);
    }

    private static bool IsNumber(object value)
    {
        return value is int || value is long || value is double;
    }

    public static TException Throws<TException>(Action action, string what) where TException : Exception
    {
        try
        {
            action();
        }
        catch (TException thrown)
        {
            return thrown;
        }
        throw new Exception(what + ": no " + typeof(TException).Name);
    }

    public static async Task<TException> ThrowsAsync<TException>(Func<Task> action, string what) where TException : Exception
    {
        try
        {
            await action();
        }
        catch (TException thrown)
        {
            return thrown;
        }
        throw new Exception(what + ": no " + typeof(TException).Name);
    }

    private static string Show(object value)
    {
        var list = value as IEnumerable;
        if (list != null && !(value is string)) return "[" + string.Join(", ", list.Cast<object>()) + "]";
        return value == null ? "null" : value.ToString();
    }
}
