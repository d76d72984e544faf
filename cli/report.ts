/** Writes the conformance report: one entry per row, its verdict and the scenarios behind it. */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { TargetDescription } from "./target.ts";
import type { Judgement } from "./verdicts.ts";

export interface ReportInput {
  reportDir: string;
  target: TargetDescription;
  judgement: Judgement;
  strict: boolean;
  harFile: string | undefined;
}

const EXCHANGES = "application/vnd.sxd.exchanges+json";

export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

export function conformanceDocument(input: ReportInput) {
  const { target, judgement } = input;
  return {
    suite: { name: "sxd", version: suiteVersion() },
    target: { baseUrl: target.baseUrl, contactsUrl: target.contactsUrl, messagingUrl: target.messagingUrl },
    date: new Date().toISOString(),
    strict: input.strict,
    overall: judgement.overall,
    rows: judgement.rows.map((r) => ({
      id: r.row.id,
      level: r.row.level,
      rule: r.row.rule,
      verdict: r.verdict,
      reason: r.reason,
      scenarios: r.scenarios.map((s) => ({
        name: s.name,
        location: s.location,
        status: s.status,
        message: s.message,
        exchanges: s.attachments
          .filter((a) => a.mediaType === EXCHANGES)
          .flatMap((a) => JSON.parse(a.body) as unknown[]),
      })),
    })),
  };
}

export function writeReports(input: ReportInput): void {
  const document = conformanceDocument(input);
  writeFileSync(resolve(input.reportDir, "conformance.json"), `${JSON.stringify(document, null, 2)}\n`);
}
