#!/usr/bin/env bash
# Builds the C# client with Mono's mcs into build~/ (git-ignored; Unity skips a folder whose name ends in ~), each output only when a source of it
# is newer: the library (Runtime/), the conformance adapter, the test runner and the bench's engine side
# (Tests~/), and the samples (Samples~/) against stand-ins of Unity's and Godot's types (Tests~/Stubs/).
# `build.sh adapter` builds the library and the adapter only.
#
# The library is compiled as C# 7.2 against mscorlib, System, System.Core and System.Net.Http only;
# the test runner checks that every type it uses is one netstandard 2.0 has (docs/csharp-client.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/build~"
mkdir -p "$out"
# one build at a time: the tests, the adapter and the bench may start it at once (flock: util-linux)
if command -v flock >/dev/null; then
  exec 9>"$out/.lock"
  flock 9
fi
MCS=(mcs -langversion:7.2 -warnaserror+ -nologo -debug- -optimize+)

# stale OUTPUT SOURCE...: true when OUTPUT is missing or older than any SOURCE
stale() {
  local output="$1"
  shift
  [ -e "$output" ] || return 0
  for source in "$@"; do [ "$source" -nt "$output" ] && return 0; done
  return 1
}

runtime=("$here"/Runtime/*.cs)
library="$out/Scoundrel.Referee.dll"
if stale "$library" "${runtime[@]}" "$0"; then
  "${MCS[@]}" -target:library -r:System.Net.Http.dll -out:"$library" "${runtime[@]}"
fi

adapter="$out/conformance-adapter.exe"
if stale "$adapter" "$library" "$here/Tests~/ConformanceAdapter.cs"; then
  "${MCS[@]}" -target:exe -r:"$library" -out:"$adapter" "$here/Tests~/ConformanceAdapter.cs"
fi

[ "${1:-}" = "adapter" ] && exit 0

tests=("$here"/Tests~/Test*.cs)
runner="$out/tests.exe"
if stale "$runner" "$library" "${tests[@]}"; then
  "${MCS[@]}" -target:exe -r:"$library" -r:System.Net.Http.dll -out:"$runner" "${tests[@]}"
fi

bench="$out/bench.exe"
if stale "$bench" "$library" "$here/Tests~/Bench.cs"; then
  "${MCS[@]}" -target:exe -r:"$library" -out:"$bench" "$here/Tests~/Bench.cs"
fi

# The samples, each compiled against a stand-in of its engine's assembly (UnityEngine.dll, GodotSharp.dll),
# so neither can rot unseen; the test runner plays a game with each (tests.exe samples).
for engine in Unity:UnityEngine Godot:GodotSharp; do
  sample="$out/Sample.${engine%%:*}.dll"
  stand_in="$out/${engine##*:}.dll"
  if stale "$stand_in" "$here/Tests~/Stubs/${engine##*:}.cs"; then
    "${MCS[@]}" -target:library -out:"$stand_in" "$here/Tests~/Stubs/${engine##*:}.cs"
  fi
  sources=("$here/Samples~/${engine%%:*}"/*.cs)
  if stale "$sample" "$library" "$stand_in" "${sources[@]}"; then
    "${MCS[@]}" -target:library -r:"$library" -r:"$stand_in" -r:System.Net.Http.dll -out:"$sample" "${sources[@]}"
  fi
done
