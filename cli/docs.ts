/**
 * `sxd docs [--out DIR] [--results conformance.json ...]`: the spec as a static site. Runs the
 * server suite once against the bundled reference and the example client once against sxd's
 * servers (cli/docs-recording.ts), to record a real exchange for every scenario of both sides,
 * then writes the pages (harness/docs/site.ts). A scenario with no recorded exchange fails the build.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { parseArgs } from "node:util";
import { loadRows } from "../harness/catalogue.ts";
import { readConformance } from "../harness/conformance-document.ts";
import { loadDocFeatures } from "../harness/docs/features.ts";
import { missingExchanges, recordedRuns } from "../harness/docs/recorded.ts";
import type { RunResults } from "../harness/docs/results.ts";
import { buildSite } from "../harness/docs/site.ts";
import { UsageError } from "../harness/errors.ts";
import { PACKAGE_ROOT } from "../harness/run.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";
import { recordExampleClientRun, recordReferenceRun } from "./docs-recording.ts";

export const DOCS_HELP = `Usage: sxd docs [--out DIR] [--results conformance.json ...]

Writes the interface's documentation as a static site (open DIR/index.html from disk, or
publish the folder as it is): every rule with its level, the server's rules and then the
client's, the scenarios that check each in plain words, and a real exchange. To record them it
runs the suite against the bundled reference (server rules) and the example client
(examples/clients/node) against sxd's servers (client rules). --results (repeatable) adds a
column per run from its conformance.json, linked to the conformance.html beside it: a server's
(sxd test) shows on the server rules, a client's (sxd test-client) on the client rules.

  --out DIR        where the site goes (default docs/site)
  --results FILE   a conformance.json of another server's or client's run
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
  const results = resultFiles.map((file) => runResults(file, outDir));
  const features = [...loadDocFeatures(PACKAGE_ROOT, "server"), ...loadDocFeatures(PACKAGE_ROOT, "client")];
  const reportDir = mkdtempSync(join(tmpdir(), "sxd-docs-"));
  try {
    const reference = await recordReferenceRun(join(reportDir, "server"));
    const client = await recordExampleClientRun(join(reportDir, "client"));
    const secrets = [...new Set([REFERENCE_DESCRIPTION.digest.password, client.secret])];
    const recorded = new Map([...recordedRuns(reference, secrets), ...recordedRuns(client.doc, secrets)]);
    const missing = missingExchanges(features, recorded);
    if (missing.length > 0) {
      throw new UsageError(`no recorded exchange for ${missing.length} scenario(s):\n  ${missing.join("\n  ")}`);
    }
    const rows = [...loadRows("server"), ...loadRows("client")];
    const files = buildSite({ rows, features, recorded, results });
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

/** A --results file (a server's run or a client's), with a link to the conformance.html beside it when there is one. */
function runResults(file: string, outDir: string): RunResults {
  let doc: RunResults["doc"];
  try {
    doc = readConformance(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const html = join(dirname(file), "conformance.html");
  return { doc, reportHref: existsSync(html) ? relative(outDir, html).split("\\").join("/") : undefined };
}
