namespace Scoundrel.Referee
{
    /// <summary>
    /// The versions and the seed rule of the Python engine whose verdicts this library reproduces.
    /// tests/clients/test_csharp.py holds them equal to the Python engine's (scoundrel), and the
    /// cross-check data (tests/data/crosscheck.json) pins the verdicts to them.
    /// </summary>
    public static class EngineInfo
    {
        public const string Ruleset = "scoundrel-1";
        public const string EngineVersion = "1.0.0";
        public const string DealVersion = "deal-v1";
        public const string SeedRule = "1-64 characters from A-Z a-z 0-9 _ -";
        public const string SeedMessage = "Seed must be " + SeedRule + ".";
    }
}
