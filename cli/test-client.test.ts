import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { UsageError } from "../harness/errors.ts";
import { runTestClient } from "./test-client.ts";

const silent = () => new Writable({ write: (_chunk, _encoding, done) => done() });

test("--parallel takes a positive number of runs, refused before any server starts", async () => {
  for (const given of ["0", "1.5", "two"])
    await assert.rejects(
      runTestClient(["--run", "true", "--parallel", given], { stdout: silent(), stderr: silent(), env: {} }),
      (error) =>
        error instanceof UsageError && error.message === `--parallel must be a whole number above 0, got "${given}"`,
    );
});
