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
