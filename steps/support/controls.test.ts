/**
 * The list of controlled cases matches the features: every scenario that sends a flawed
 * request has its control, every scenario with a control sends a flawed request, and every
 * listed case occurs under the rows it names.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { test } from "node:test";
import { generateMessages } from "@cucumber/gherkin";
import { IdGenerator, SourceMediaType } from "@cucumber/messages";
import { readTags } from "../../harness/judging/catalogue.ts";
import { featureFiles } from "../../harness/judging/scenarios.ts";
import { PACKAGE_ROOT } from "../../harness/package.ts";
import { CONTROLLED_CASES } from "./controls.ts";

interface Pickled {
  name: string;
  uri: string;
  rows: string[];
  steps: string[];
}

function pickles(): Pickled[] {
  const root = PACKAGE_ROOT;
  return featureFiles(root).flatMap((file) => {
    const uri = relative(root, file);
    return generateMessages(readFileSync(file, "utf8"), uri, SourceMediaType.TEXT_X_CUCUMBER_GHERKIN_PLAIN, {
      includeGherkinDocument: false,
      includePickles: true,
      includeSource: false,
      newId: IdGenerator.incrementing(),
    }).flatMap(({ pickle }) =>
      pickle
        ? [
            {
              name: pickle.name,
              uri,
              rows: readTags(pickle.tags.map((t) => t.name)).rows,
              steps: pickle.steps.map((s) => s.text),
            },
          ]
        : [],
    );
  });
}

test("every scenario of a listed row with a flawed request has its control and the reverse, and each listed row has one", () => {
  const all = pickles();
  for (const entry of CONTROLLED_CASES) {
    // The step that sends a flawed update also sends good ones elsewhere: a flaw is one under the listed rows.
    const withFlaw = all.filter(
      (p) => p.rows.some((row) => entry.rows.includes(row)) && p.steps.some((s) => entry.flawed.test(s)),
    );
    const withControl = all.filter((p) => p.steps.some((s) => entry.control.test(s)));
    assert.ok(withFlaw.length > 0, `no scenario sends ${entry.flawed}`);
    for (const p of withFlaw) {
      assert.ok(withControl.includes(p), `${p.uri} "${p.name}" sends a flawed request without its control`);
    }
    for (const p of withControl) assert.ok(withFlaw.includes(p), `${p.uri} "${p.name}" has a control and no flaw`);
    for (const row of entry.rows)
      assert.ok(
        withFlaw.some((p) => p.rows.includes(row)),
        `${row} is listed, but no scenario of it sends ${entry.flawed}`,
      );
  }
});

test("every step that sends a request without a flaw beside a flawed one is a listed control", () => {
  const controls = /^the same .+ (exports|gets in)$|^the client was granted access with/;
  const listed = (step: string) => CONTROLLED_CASES.some((entry) => entry.control.test(step));
  for (const p of pickles())
    for (const step of p.steps.filter((s) => controls.test(s)))
      assert.ok(listed(step) || !p.steps.some((s) => /flaw|defect|wrong|forged|stale/.test(s)), `${p.uri}: "${step}"`);
});
