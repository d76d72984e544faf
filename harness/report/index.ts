/**
 * The reports of a run, one module per output: conformance.json (conformance-json.ts), the HTML
 * page (html.ts), junit.xml (junit.ts), summary.md (markdown.ts), the optional HAR file (har.ts); the merged matrix of
 * several runs is matrix.ts and the console summary summary.ts.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { ConformanceDocument } from "../conformance-document.ts";
import { conformanceDocument, type ReportInput } from "./conformance-json.ts";
import { harDocument } from "./har.ts";
import { conformanceHtml } from "./html.ts";
import { junitXml } from "./junit.ts";
import { summaryMarkdown } from "./markdown.ts";

export function writeReports(input: ReportInput): ConformanceDocument {
  const document = conformanceDocument(input);
  writeFileSync(resolve(input.reportDir, "conformance.json"), `${JSON.stringify(document, null, 2)}\n`);
  writeFileSync(resolve(input.reportDir, "conformance.html"), conformanceHtml(document, input.docsUrl));
  writeFileSync(
    resolve(input.reportDir, "junit.xml"),
    junitXml({
      judgement: input.judgement,
      baseUrl: input.target.baseUrl,
      timestamp: input.startedAt ?? document.date,
    }),
  );
  writeFileSync(resolve(input.reportDir, "summary.md"), summaryMarkdown(document));
  if (input.harFile) writeFileSync(resolve(input.harFile), `${JSON.stringify(harDocument(document), null, 2)}\n`);
  return document;
}
