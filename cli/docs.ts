/**
 * `sxd docs [--out DIR] [--results conformance.json|interop.json ...]`: the spec as a static
 * site. Runs the server suite once against the bundled reference and the example client once
 * against sxd's servers (cli/docs-recording.ts), to record a real exchange for every scenario of
 * both sides, then writes the pages (harness/docs/site.ts). A scenario with no recorded exchange
 * fails the build.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { loadDocFeatures } from "../harness/docs/features.ts";
import { type InteropResults, interopDocumentOf } from "../harness/docs/interop-results.ts";
import { missingExchanges, recordedRuns } from "../harness/docs/recorded.ts";
import type { RunResults } from "../harness/docs/results.ts";
import { buildSite } from "../harness/docs/site.ts";
import { UsageError } from "../harness/errors.ts";
import { readConformance } from "../harness/evidence/conformance-document.ts";
import type { LimitsDocument } from "../harness/evidence/limits-document.ts";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import { loadLimitRows, loadRows } from "../harness/judging/catalogue.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";
import { measureReferenceLimits, recordExampleClientRun, recordReferenceRun } from "./docs-recording.ts";
import { commandHelp } from "./help.ts";
import { parseOptions, withDefault } from "./option-parse.ts";

export interface DocsBuild {
  outDir: string;
  files: number;
  bytes: number;
  seconds: number;
}

export async function runDocs(argv: string[], stdout: NodeJS.WritableStream): Promise<number> {
  const parsed = parseOptions("docs", argv, {});
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    stdout.write(commandHelp("docs"));
    return 0;
  }
  const build = await buildDocs(
    withDefault("docs", "out", given.text("out")),
    given.list("results"),
    given.text("limits"),
  );
  stdout.write(
    `wrote ${build.outDir}/index.html: ${build.files} files, ${Math.round(build.bytes / 1024)} KiB, in ${build.seconds.toFixed(1)} s\n`,
  );
  return 0;
}

export async function buildDocs(outDir: string, resultFiles: string[], limitsFile?: string): Promise<DocsBuild> {
  const started = performance.now();
  const read = resultFiles.map((file) => resultsFile(file, outDir));
  const results = read.flatMap((r) => (r.kind === "conformance" ? [r.results] : []));
  const interop = read.flatMap((r) => (r.kind === "interop" ? [r.results] : []));
  const given = { limits: limitsFile === undefined ? undefined : limitsOf(limitsFile) };
  const features = [...loadDocFeatures(PACKAGE_ROOT, "server"), ...loadDocFeatures(PACKAGE_ROOT, "client")];
  const reportDir = mkdtempSync(join(tmpdir(), "sxd-docs-"));
  try {
    const reference = await recordReferenceRun(join(reportDir, "server"));
    const client = await recordExampleClientRun(join(reportDir, "client"));
    const measured = given.limits ?? (await measureReferenceLimits(join(reportDir, "limits")));
    const secrets = [...new Set([REFERENCE_DESCRIPTION.digest.password, client.secret])];
    const recorded = new Map([...recordedRuns(reference, secrets), ...recordedRuns(client.doc, secrets)]);
    const missing = missingExchanges(features, recorded);
    if (missing.length > 0) {
      throw new UsageError(`no recorded exchange for ${missing.length} scenario(s):\n  ${missing.join("\n  ")}`);
    }
    const rows = [...loadRows("server"), ...loadRows("client")];
    const limits = { rows: loadLimitRows(), measured };
    const files = buildSite({ rows, features, recorded, results, interop, limits });
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

/** --limits: a limits.json of sxd limits. */
function limitsOf(file: string): LimitsDocument {
  try {
    const doc = JSON.parse(readFileSync(file, "utf8")) as LimitsDocument;
    if (doc.tool !== "sxd limits" || !Array.isArray(doc.cases)) throw new Error("not a limits.json of sxd limits");
    return doc;
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

type ResultsFile = { kind: "conformance"; results: RunResults } | { kind: "interop"; results: InteropResults };

/**
 * A --results file: a server's or a client's run, with a link to the conformance.html beside it
 * when there is one, or an interop.json of `sxd interop`.
 */
function resultsFile(file: string, outDir: string): ResultsFile {
  try {
    const interop = interopDocumentOf(JSON.parse(readFileSync(file, "utf8")), file);
    if (interop) return { kind: "interop", results: { doc: interop, label: file } };
    const html = join(dirname(file), REPORT_FILES.conformanceHtml);
    const reportHref = existsSync(html) ? relative(outDir, html).split("\\").join("/") : undefined;
    return { kind: "conformance", results: { doc: readConformance(file), reportHref } };
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
}
