/**
 * The reports of every kind of run, one module per format: conformance.json (conformance-json.ts),
 * the HTML page of a server's or client's run (html.ts) and of an interop run (interop-html.ts),
 * junit.xml (junit.ts), summary.md (markdown.ts), the optional HAR file (har.ts); the merged
 * matrix of several runs is matrix.ts and the console summary summary.ts. The files' names come
 * from report-folder.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import type { InteropDocument } from "../evidence/interop-document.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import { conformanceDocument, type ReportInput } from "./conformance-json.ts";
import { harDocument } from "./har.ts";
import { conformanceHtml } from "./html.ts";
import { writeInteropHtml } from "./interop-html.ts";
import { interopJunit, junitXml } from "./junit.ts";
import { interopMarkdown, summaryMarkdown } from "./markdown.ts";

/** The reports of a server's or client's run; its conformance.json as data. */
export function writeReports(input: ReportInput): ConformanceDocument {
  const document = conformanceDocument(input);
  writeFileSync(resolve(input.reportDir, REPORT_FILES.conformanceJson), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(resolve(input.reportDir, REPORT_FILES.conformanceHtml), conformanceHtml(document, input.docsUrl));
  writeFileSync(
    resolve(input.reportDir, REPORT_FILES.junit),
    junitXml({
      judgement: input.judgement,
      baseUrl: input.target.baseUrl,
      timestamp: input.startedAt ?? document.date,
    }),
  );
  writeFileSync(resolve(input.reportDir, REPORT_FILES.summary), summaryMarkdown(document));
  if (input.harFile) writeFileSync(resolve(input.harFile), `${JSON.stringify(harDocument(document), null, 2)}\n`);
  return document;
}

/**
 * Everything an interop run (or the merge of its shards) leaves in the report directory:
 * interop.json, junit.xml, interop.html with a page per cell, and summary.md, the matrix in
 * Markdown that a CI job shows as its summary (ci/sxd-ci.sh takes it from there).
 */
export function writeInteropReports(reportDir: string, doc: InteropDocument): void {
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(join(reportDir, REPORT_FILES.interopJson), `${JSON.stringify(doc, null, 2)}\n`);
  writeFileSync(join(reportDir, REPORT_FILES.junit), interopJunit(doc));
  writeFileSync(join(reportDir, REPORT_FILES.summary), interopMarkdown(doc));
  writeInteropHtml(reportDir, doc);
}
