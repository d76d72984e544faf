/**
 * `sxd docs [--out DIR] [--results conformance.json ...]`: the spec as a static site. Runs the
 * suite once against the bundled reference to record a real exchange for every scenario, then
 * writes the pages (harness/docs/site.ts). A scenario with no recorded exchange fails the build.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { loadRows } from "../harness/catalogue.ts";
import { readConformance } from "../harness/conformance-document.ts";
import { loadDocFeatures } from "../harness/docs/features.ts";
import { missingExchanges, recordedRuns } from "../harness/docs/recorded.ts";
import type { ServerResults } from "../harness/docs/results.ts";
import { buildSite } from "../harness/docs/site.ts";
import { UsageError } from "../harness/errors.ts";
import { PACKAGE_ROOT } from "../harness/run.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";
import { runSuite } from "./run-suite.ts";

export const DOCS_HELP = `Usage: sxd docs [--out DIR] [--results conformance.json ...]

Writes the interface's documentation as a static site (open DIR/index.html from disk, or
publish the folder as it is): every rule with its level, the scenarios that check it in plain
words, and a real exchange with the bundled reference, which this command runs the suite
against to record. --results (repeatable) adds a column per server from its conformance.json,
linked to the conformance.html beside it.

  --out DIR        where the site goes (default docs/site)
  --results FILE   a conformance.json of another server's run
`;

export interface DocsBuild {
  outDir: string;
  files: number;
  bytes: number;
  seconds: number;
}

export async function runDocs(argv: string[], stdout: NodeJS.WritableStream): Promise<number> {
  let parsed: ReturnType<typeof parseDocsArgs>;
  try {
    parsed = parseDocsArgs(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (sxd help docs)`);
  }
  if (parsed.help) {
    stdout.write(DOCS_HELP);
    return 0;
  }
  const build = await buildDocs(parsed.out, parsed.results);
  stdout.write(
    `wrote ${build.outDir}/index.html: ${build.files} files, ${Math.round(build.bytes / 1024)} KiB, in ${build.seconds.toFixed(1)} s\n`,
  );
  return 0;
}

function parseDocsArgs(argv: string[]): { out: string; results: string[]; help: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: {
      out: { type: "string", default: "docs/site" },
      results: { type: "string", multiple: true, default: [] },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  return { out: values.out, results: values.results, help: values.help };
}

export async function buildDocs(outDir: string, resultFiles: string[]): Promise<DocsBuild> {
  const started = performance.now();
  const servers = resultFiles.map((file) => serverResults(file, outDir));
  const features = loadDocFeatures(PACKAGE_ROOT);
  const secrets = [REFERENCE_DESCRIPTION.digest.password];
  const reportDir = mkdtempSync(join(tmpdir(), "sxd-docs-"));
  try {
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    const run = await runSuite(
      {
        target: undefined,
        layers: [],
        tags: undefined,
        strict: true,
        reportDir,
        timeoutMs: 10_000,
        parallel: 1,
        expectFailFile: undefined,
        harFile: undefined,
        referenceFaults: [],
        referenceVariant: undefined,
      },
      { stdout: quiet, stderr: quiet },
    );
    const reference = readConformance(join(reportDir, "conformance.json"));
    if (run.exitCode !== 0)
      throw new UsageError(`the bundled reference did not pass its own suite (${reference.overall})`);
    const recorded = recordedRuns(reference, secrets);
    const missing = missingExchanges(features, recorded);
    if (missing.length > 0) {
      throw new UsageError(`no recorded exchange for ${missing.length} scenario(s):\n  ${missing.join("\n  ")}`);
    }
    const files = buildSite({ rows: loadRows(), features, recorded, servers });
    const leaked = [...files].find(([, content]) => secrets.some((secret) => content.includes(secret)));
    if (leaked) throw new Error(`${leaked[0]} would show the digest secret`);
    mkdirSync(outDir, { recursive: true });
    for (const [name, content] of files) writeFileSync(join(outDir, name), content);
    const bytes = [...files.keys()].reduce((sum, name) => sum + statSync(join(outDir, name)).size, 0);
    return { outDir, files: files.size, bytes, seconds: (performance.now() - started) / 1000 };
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}

/** A --results file, with a link to the conformance.html beside it when there is one. */
function serverResults(file: string, outDir: string): ServerResults {
  let doc: ServerResults["doc"];
  try {
    doc = readConformance(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const html = join(dirname(file), "conformance.html");
  return { doc, reportHref: existsSync(html) ? relative(outDir, html).split("\\").join("/") : undefined };
}
