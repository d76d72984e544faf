// Whether a checkout's dist/ is its sources compiled: bin/sxd.js runs it where it is, and the
// tests build it again only where it is not (scripts/run-tests.mjs).
import { readdirSync, readFileSync, statSync } from "node:fs";

/**
 * Whether dist/ was built from the sources as they are: its stamp (written by
 * scripts/build.mjs) holds the time the build started, and nothing in the folders the build
 * compiles (tsconfig.build.json's include) has changed since: no file, and no folder (a
 * folder's time moves when a file in it is added, removed or renamed). Anything that cannot
 * be read counts as changed: the TypeScript is always a safe choice. `root` is the checkout's
 * folder, ending in a slash.
 */
export function builtAfterSources(root) {
  try {
    const startedAt = Number(readFileSync(`${root}dist/.built`, "utf8"));
    if (!Number.isFinite(startedAt)) return false;
    const { include } = JSON.parse(readFileSync(`${root}tsconfig.build.json`, "utf8"));
    // schema/: the build compiles its validators (harness/description/schema-check.ts).
    for (const folder of [...include, "schema"]) {
      if (statSync(`${root}${folder}`).mtimeMs >= startedAt) return false;
      for (const name of readdirSync(`${root}${folder}`, { recursive: true })) {
        // Tests are not compiled; a test added or removed still moves its folder's time.
        if (name.endsWith(".test.ts")) continue;
        if (statSync(`${root}${folder}/${name}`).mtimeMs >= startedAt) return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}
