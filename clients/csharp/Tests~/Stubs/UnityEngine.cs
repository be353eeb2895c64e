// A stand-in of the few UnityEngine types the Unity sample touches, compiled as build~/UnityEngine.dll by
// build.sh so the sample is compiled (and run by the tests) without Unity. Debug keeps what is logged.
using System;
using System.Collections.Concurrent;

namespace UnityEngine
{
    public class Object
    {
    }

    public class Component : Object
    {
    }

    public class Behaviour : Component
    {
    }

    public class MonoBehaviour : Behaviour
    {
    }

    [AttributeUsage(AttributeTargets.Field)]
    public sealed class TooltipAttribute : Attribute
    {
        public TooltipAttribute(string tooltip)
        {
        }
    }

    public static class Debug
    {
        /// <summary>Every line logged, "log: …", "warning: …" or "error: …", for the tests to wait on.</summary>
        public static readonly BlockingCollection<string> Logged = new BlockingCollection<string>();

        public static void Log(object message)
        {
            Logged.Add("log: " + message);
        }

        public static void LogWarning(object message)
        {
            Logged.Add("warning: " + message);
        }

        public static void LogError(object message)
        {
            Logged.Add("error: " + message);
        }
    }
}
