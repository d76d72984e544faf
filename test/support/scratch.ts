/**
 * Temporary folders for a test process: each is removed when the process exits, whatever the
 * tests did with it, so a run leaves nothing behind (scripts/run-tests.mjs counts what is left).
 *
 *   const dir = scratchDir("sxd-cli-");
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];
process.once("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder in the temporary folder, its name starting with `prefix`. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
