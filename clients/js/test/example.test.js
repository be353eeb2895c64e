// The README's example runs end to end against the local fake server.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";

test("examples/play-and-submit.mjs plays, submits and gets the same verdict", async () => {
  const script = new URL("../examples/play-and-submit.mjs", import.meta.url).pathname;
  const env = { ...process.env, SEED: "abc", VARIANT: "classic" };
  delete env.SCOUNDREL_URL;
  delete env.SCOUNDREL_TOKEN;
  const { stdout } = await promisify(execFile)(process.execPath, [script], { env });
  assert.match(stdout, /^abc \(classic\): \d+ moves, (won|lost), score -?\d+$/m);
  assert.match(stdout, /^referee: verified (won|lost), score -?\d+$/m);
});

const run = (env) => {
  const script = new URL("../examples/play-and-submit.mjs", import.meta.url).pathname;
  const clean = { ...process.env, ...env };
  delete clean.SCOUNDREL_URL;
  delete clean.SCOUNDREL_TOKEN;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete clean[name];
  return promisify(execFile)(process.execPath, [script], { env: clean });
};

test("without SEED the example plays a seed that does not pass for the daily one", async () => {
  const { stdout } = await run({ SEED: undefined, VARIANT: undefined });
  assert.match(stdout, /^example \(classic\): \d+ moves/m);
  assert.doesNotMatch(stdout, /daily/);
});

for (const [env, expected] of [
  [{ SEED: "not a seed!" }, /^play-and-submit: SEED "not a seed!" is not a seed: use 1-64 characters/],
  [{ SEED: "x".repeat(65) }, /^play-and-submit: SEED "x+" is not a seed/],
  [{ SEED: "abc", VARIANT: "nightmare" }, /^play-and-submit: VARIANT "nightmare" is not one of classic, easy, hard$/],
]) {
  test(`a bad setting (${JSON.stringify(env)}) is one clear line and exit status 2, not a TypeError`, async () => {
    await assert.rejects(run(env), (error) => {
      assert.equal(error.code, 2);
      assert.match(error.stderr.trim(), expected);
      assert.equal(error.stderr.trim().split("\n").length, 1);
      assert.doesNotMatch(error.stderr, /TypeError|at .*\.js/);
      return true;
    });
  });
}
