// A stand-in of the few Godot 4 types the Godot sample touches, compiled as build~/GodotSharp.dll by
// build.sh so the sample is compiled (and run by the tests) without Godot. GD keeps what is printed.
using System;
using System.Collections.Concurrent;

namespace Godot
{
    public class GodotObject
    {
    }

    public partial class Node : GodotObject
    {
        public virtual void _Ready()
        {
        }

        public virtual void _ExitTree()
        {
        }
    }

    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property)]
    public sealed class ExportAttribute : Attribute
    {
    }

    public static class GD
    {
        /// <summary>Every line printed, "log: …" or "error: …", for the tests to wait on.</summary>
        public static readonly BlockingCollection<string> Logged = new BlockingCollection<string>();

        public static void Print(params object[] what)
        {
            Logged.Add("log: " + string.Concat(what));
        }

        public static void PrintErr(params object[] what)
        {
            Logged.Add("error: " + string.Concat(what));
        }
    }
}
