// The dealt-game example runs end to end against the local fake server.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";

test("examples/play-dealt.mjs plays a dealt game seeing only the room, then checks the deal", async () => {
  const script = new URL("../examples/play-dealt.mjs", import.meta.url).pathname;
  const env = { ...process.env, VARIANT: "easy" };
  delete env.SCOUNDREL_URL;
  delete env.SCOUNDREL_TOKEN;
  delete env.CHALLENGE;
  const { stdout } = await promisify(execFile)(process.execPath, [script], { env });
  assert.match(stdout, /^game [0-9a-f]{32} \(easy\), commitment [0-9a-f]{64}$/m);
  assert.match(stdout, /^(won|lost) after \d+ moves$/m);
  assert.match(stdout, /^seed [0-9a-f]{64}: SHA-256 matches the commitment$/m);
  assert.match(stdout, /^referee: verified (won|lost), score -?\d+; local replay: \1, score -?\d+$/m);
  assert.match(stdout, /^the deal checks out$/m);

  const daily = await promisify(execFile)(process.execPath, [script], { env: { ...env, VARIANT: "classic", CHALLENGE: "daily" } });
  assert.match(daily.stdout, /^the seed is sealed until the UTC day is over/m);
});
