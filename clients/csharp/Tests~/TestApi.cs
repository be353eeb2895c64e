using System;
using System.Collections.Generic;
using System.Threading.Tasks;

/// <summary>The API client against a running service (filled in below).</summary>
public static class ApiTests
{
    public static IEnumerable<KeyValuePair<string, Func<Task>>> All()
    {
        yield break;
    }
}
