using System.Runtime.CompilerServices;

// The test runner checks the deal's own SHA-256 (Sha256) against the framework's.
[assembly: InternalsVisibleTo("tests")]
