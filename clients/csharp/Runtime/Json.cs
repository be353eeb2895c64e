using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Scoundrel.Referee
{
    /// <summary>
    /// A JSON object, its keys in the order read or written. Values are what <see cref="Json.Parse"/>
    /// gives: null, bool, long (an integer), double (any other number), string, List&lt;object&gt;, JsonObject.
    /// </summary>
    public sealed class JsonObject : Dictionary<string, object>
    {
        public JsonObject() : base(StringComparer.Ordinal)
        {
        }

        /// <summary>The value of the key, or null when the key is missing.</summary>
        public object Get(string key)
        {
            object value;
            return TryGetValue(key, out value) ? value : null;
        }

        public string GetString(string key)
        {
            return Get(key) as string;
        }

        /// <summary>An integer field, or null when missing, null or not an integer.</summary>
        public long? GetLong(string key)
        {
            var value = Get(key);
            return value is long ? (long?)(long)value : null;
        }

        public int? GetInt(string key)
        {
            var value = GetLong(key);
            return value.HasValue ? (int?)value.Value : null;
        }

        /// <summary>A number field as a double (an integer too), or null.</summary>
        public double? GetDouble(string key)
        {
            var value = Get(key);
            if (value is long) return (long)value;
            return value is double ? (double?)(double)value : null;
        }

        public bool GetBool(string key)
        {
            return Get(key) is bool && (bool)Get(key);
        }

        public JsonObject GetObject(string key)
        {
            return Get(key) as JsonObject;
        }

        public List<object> GetList(string key)
        {
            return Get(key) as List<object>;
        }

        /// <summary>A list of strings (a null item stays null), or an empty list when the field is missing.</summary>
        public List<string> GetStrings(string key)
        {
            var strings = new List<string>();
            var list = GetList(key);
            if (list != null)
                foreach (var item in list) strings.Add(item as string);
            return strings;
        }

        public override string ToString()
        {
            return Json.Write(this);
        }
    }

    /// <summary>Thrown by <see cref="Json.Parse"/> for text that is not JSON.</summary>
    public sealed class JsonFormatException : FormatException
    {
        public JsonFormatException(string message, int position) : base(message + " at character " + position)
        {
        }
    }

    /// <summary>
    /// A small JSON reader and writer (RFC 8259), so the library needs nothing a Unity or Godot project
    /// lacks: neither System.Text.Json nor Newtonsoft.Json is there by default.
    /// </summary>
    public static class Json
    {
        /// <summary>The value of a JSON text (see <see cref="JsonObject"/> for the types). JsonFormatException for anything else.</summary>
        public static object Parse(string text)
        {
            var reader = new Reader(text);
            var value = reader.Value();
            reader.End();
            return value;
        }

        /// <summary>A value as compact JSON: null, bool, numbers, strings, lists and dictionaries with string keys.</summary>
        public static string Write(object value)
        {
            var text = new StringBuilder();
            Write(value, text);
            return text.ToString();
        }

        private static void Write(object value, StringBuilder text)
        {
            if (value == null) text.Append("null");
            else if (value is bool) text.Append((bool)value ? "true" : "false");
            else if (value is string) WriteString((string)value, text);
            else if (value is int || value is long || value is short || value is byte || value is uint || value is ulong)
                text.Append(Convert.ToString(value, CultureInfo.InvariantCulture));
            else if (value is double || value is float || value is decimal) WriteNumber(Convert.ToDouble(value, CultureInfo.InvariantCulture), text);
            else if (value is System.Collections.IDictionary) WriteObject((System.Collections.IDictionary)value, text);
            else if (value is System.Collections.IEnumerable) WriteList((System.Collections.IEnumerable)value, text);
            else throw new ArgumentException("cannot write a " + value.GetType().Name + " as JSON");
        }

        private static void WriteNumber(double number, StringBuilder text)
        {
            if (double.IsNaN(number) || double.IsInfinity(number)) throw new ArgumentException("JSON has no NaN or infinity");
            text.Append(number.ToString("R", CultureInfo.InvariantCulture));
        }

        private static void WriteObject(System.Collections.IDictionary members, StringBuilder text)
        {
            text.Append('{');
            var first = true;
            foreach (System.Collections.DictionaryEntry member in members)
            {
                if (!first) text.Append(',');
                first = false;
                WriteString(Convert.ToString(member.Key, CultureInfo.InvariantCulture), text);
                text.Append(':');
                Write(member.Value, text);
            }
            text.Append('}');
        }

        private static void WriteList(System.Collections.IEnumerable items, StringBuilder text)
        {
            text.Append('[');
            var first = true;
            foreach (var item in items)
            {
                if (!first) text.Append(',');
                first = false;
                Write(item, text);
            }
            text.Append(']');
        }

        private static void WriteString(string value, StringBuilder text)
        {
            text.Append('"');
            foreach (var c in value)
            {
                switch (c)
                {
                    case '"': text.Append("\\\""); break;
                    case '\\': text.Append("\\\\"); break;
                    case '\n': text.Append("\\n"); break;
                    case '\r': text.Append("\\r"); break;
                    case '\t': text.Append("\\t"); break;
                    case '\b': text.Append("\\b"); break;
                    case '\f': text.Append("\\f"); break;
                    default:
                        if (c < ' ') text.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else text.Append(c);
                        break;
                }
            }
            text.Append('"');
        }

        private sealed class Reader
        {
            private const int MaxDepth = 256;
            private readonly string text;
            private int at;
            private int depth;

            public Reader(string text)
            {
                this.text = text ?? throw new ArgumentNullException("text");
            }

            public void End()
            {
                Space();
                if (at != text.Length) throw Fail("unexpected text after the value");
            }

            private JsonFormatException Fail(string message)
            {
                return new JsonFormatException(message, at);
            }

            private void Space()
            {
                while (at < text.Length && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) at++;
            }

            private void Literal(string word)
            {
                if (string.CompareOrdinal(text, at, word, 0, word.Length) != 0) throw Fail("unexpected character");
                at += word.Length;
            }

            public object Value()
            {
                Space();
                if (at == text.Length) throw Fail("unexpected end of text");
                var c = text[at];
                switch (c)
                {
                    case '{': return Object();
                    case '[': return List();
                    case '"': return String();
                    case 't': Literal("true"); return true;
                    case 'f': Literal("false"); return false;
                    case 'n': Literal("null"); return null;
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return Number();
                        throw Fail("unexpected character");
                }
            }

            private void Enter()
            {
                if (++depth > MaxDepth) throw Fail("nested too deep");
                at++;
                Space();
            }

            private JsonObject Object()
            {
                Enter();
                var members = new JsonObject();
                if (at < text.Length && text[at] == '}')
                {
                    at++;
                    depth--;
                    return members;
                }
                while (true)
                {
                    Space();
                    if (at == text.Length || text[at] != '"') throw Fail("expected a member name");
                    var key = String();
                    Space();
                    if (at == text.Length || text[at] != ':') throw Fail("expected ':'");
                    at++;
                    members[key] = Value();
                    Space();
                    if (at < text.Length && text[at] == ',')
                    {
                        at++;
                        continue;
                    }
                    if (at < text.Length && text[at] == '}')
                    {
                        at++;
                        depth--;
                        return members;
                    }
                    throw Fail("expected ',' or '}'");
                }
            }

            private List<object> List()
            {
                Enter();
                var items = new List<object>();
                if (at < text.Length && text[at] == ']')
                {
                    at++;
                    depth--;
                    return items;
                }
                while (true)
                {
                    items.Add(Value());
                    Space();
                    if (at < text.Length && text[at] == ',')
                    {
                        at++;
                        continue;
                    }
                    if (at < text.Length && text[at] == ']')
                    {
                        at++;
                        depth--;
                        return items;
                    }
                    throw Fail("expected ',' or ']'");
                }
            }

            private string String()
            {
                at++; // the opening quote
                var value = new StringBuilder();
                while (true)
                {
                    if (at >= text.Length) throw Fail("unterminated string");
                    var c = text[at++];
                    if (c == '"') return value.ToString();
                    if (c < ' ') throw Fail("control character in a string");
                    if (c != '\\')
                    {
                        value.Append(c);
                        continue;
                    }
                    if (at >= text.Length) throw Fail("unterminated string");
                    var escape = text[at++];
                    switch (escape)
                    {
                        case '"': value.Append('"'); break;
                        case '\\': value.Append('\\'); break;
                        case '/': value.Append('/'); break;
                        case 'b': value.Append('\b'); break;
                        case 'f': value.Append('\f'); break;
                        case 'n': value.Append('\n'); break;
                        case 'r': value.Append('\r'); break;
                        case 't': value.Append('\t'); break;
                        case 'u':
                            int code;
                            if (at + 4 > text.Length ||
                                !int.TryParse(text.Substring(at, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code))
                                throw Fail("bad \\u escape");
                            value.Append((char)code);
                            at += 4;
                            break;
                        default: throw Fail("bad escape");
                    }
                }
            }

            private object Number()
            {
                var start = at;
                if (text[at] == '-') at++;
                var integral = true;
                Digits();
                if (at < text.Length && text[at] == '.')
                {
                    integral = false;
                    at++;
                    Digits();
                }
                if (at < text.Length && (text[at] == 'e' || text[at] == 'E'))
                {
                    integral = false;
                    at++;
                    if (at < text.Length && (text[at] == '+' || text[at] == '-')) at++;
                    Digits();
                }
                var number = text.Substring(start, at - start);
                long whole;
                if (integral && long.TryParse(number, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out whole)) return whole;
                return double.Parse(number, NumberStyles.Float, CultureInfo.InvariantCulture);
            }

            private void Digits()
            {
                var start = at;
                while (at < text.Length && text[at] >= '0' && text[at] <= '9') at++;
                if (at == start) throw Fail("expected a digit");
            }
        }
    }
}
