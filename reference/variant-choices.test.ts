// The variant is a set of choices resolved in one place per behaviour (choices.ts), as the
// fault modes are a policy (faults.ts): the routes ask the choices, never which variant runs.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Variant } from "./context.ts";
import { digestChoices } from "./digest/choices.ts";
import { exportChoices } from "./export/choices.ts";
import { snapshotChoices } from "./snapshots/choices.ts";

const REFERENCE = fileURLToPath(new URL(".", import.meta.url));
const RESOLVERS = ["digest/choices.ts", "export/choices.ts", "snapshots/choices.ts"];
/** Files that only hand the variant on, and why. */
const HANDED_ON: Record<string, string> = {
  "server.ts": "puts the option into the context, standard by default",
};

/** `.variant`, `["variant"]`, or `variant` taken out of an object by destructuring. */
const READS_VARIANT = /\.variant\b|\[\s*["'`]variant["'`]\s*\]|\{[^{}]*\bvariant\b[^{}]*\}\s*=/;

function sources(): string[] {
  return readdirSync(REFERENCE, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .map((file) => file.split("\\").join("/"));
}

test("no file under reference/ but the choices reads the variant", () => {
  const allowed = new Set([...RESOLVERS, ...Object.keys(HANDED_ON)]);
  const readers = sources().filter((file) => READS_VARIANT.test(readFileSync(join(REFERENCE, file), "utf8")));
  assert.deepEqual(
    readers.filter((file) => !allowed.has(file)),
    [],
    "ask the behaviour's choices (choices.ts) instead",
  );
  assert.deepEqual(readers.sort(), [...allowed].sort(), "every listed file still reads the variant");
});

/** A choice the two variants make alike is no choice: the suite would never see the other. */
function checkEveryChoiceDiffers<C extends object>(choicesOf: (context: { variant: Variant }) => C) {
  const standard = choicesOf({ variant: "standard" });
  const alternative = choicesOf({ variant: "alternative" });
  const alike = Object.keys(standard).filter(
    (key) => JSON.stringify(standard[key as keyof C]) === JSON.stringify(alternative[key as keyof C]),
  );
  assert.deepEqual(alike, [], "choices the variants make alike");
}

describe("every choice differs between the variants", () => {
  it("digest", () => checkEveryChoiceDiffers(digestChoices));
  it("snapshots", () => checkEveryChoiceDiffers(snapshotChoices));
  it("export", () => checkEveryChoiceDiffers(exportChoices));
});
