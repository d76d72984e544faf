/**
 * The checkout's own folder: where a test that walks the sources' folders looks. The tests run
 * from their build (scripts/test-tree.mjs), a tree of compiled modules and links beside them,
 * whose package.json is a link to the checkout's.
 */
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const SOURCE_ROOT = dirname(realpathSync(fileURLToPath(new URL("../../package.json", import.meta.url))));
