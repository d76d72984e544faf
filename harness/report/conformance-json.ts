/**
 * conformance.json: the run as data, one entry per row (level, verdict, reason) with its
 * scenarios and the exchanges they made. Every other report is built from this document.
 */
import { readFileSync } from "node:fs";
import type { ClientEvidence } from "../client/evidence.ts";
import type { Exchange } from "../exchange.ts";
import { EXCHANGES_MEDIA_TYPE } from "../outcomes.ts";
import { packageFile } from "../package.ts";
import type { TargetDescription } from "../target.ts";
import type { Judgement, Overall, RowVerdict } from "../verdicts.ts";

export interface ReportInput {
  reportDir: string;
  target: Pick<TargetDescription, "baseUrl" | "contactsUrl" | "messagingUrl">;
  judgement: Judgement;
  strict: boolean;
  harFile: string | undefined;
  /** When the run started, ISO 8601 (junit.xml's timestamp). */
  startedAt?: string;
  /** What a reader must know about how the run went: "interrupted (SIGINT)", "TLS certificates were not checked". */
  warnings?: string[];
  /** The signal that stopped the run early, if one did: the report is incomplete. */
  interrupted?: string;
  /** Where the docs site is published: conformance.html links each row to its section. */
  docsUrl?: string;
  /** A client run (`sxd test-client`): the command and each run of a task, with what it sent. */
  client?: ClientEvidence;
}

export interface ConformanceDocument {
  suite: { name: string; version: string };
  target: { baseUrl: string; contactsUrl?: string; messagingUrl?: string };
  date: string;
  strict: boolean;
  overall: Overall;
  /** Set when a signal stopped the run: the scenarios not started are not run. */
  interrupted?: string;
  warnings?: string[];
  client?: ClientEvidence;
  rows: Array<{
    id: string;
    level: string;
    rule: string;
    verdict: RowVerdict;
    reason?: string;
    scenarios: Array<{ name: string; location: string; status: string; message?: string; exchanges: Exchange[] }>;
  }>;
}

export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string };
  return pkg.version;
}

export function conformanceDocument(input: ReportInput): ConformanceDocument {
  const { target, judgement } = input;
  return {
    suite: { name: "sxd", version: suiteVersion() },
    target: { baseUrl: target.baseUrl, contactsUrl: target.contactsUrl, messagingUrl: target.messagingUrl },
    date: new Date().toISOString(),
    strict: input.strict,
    overall: judgement.overall,
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
    ...(input.warnings?.length ? { warnings: input.warnings } : {}),
    ...(input.client ? { client: input.client } : {}),
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
          .filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE)
          .flatMap((a) => JSON.parse(a.body) as Exchange[]),
      })),
    })),
  };
}

export function readConformance(path: string): ConformanceDocument {
  const doc = JSON.parse(readFileSync(path, "utf8")) as ConformanceDocument;
  if (!doc || !Array.isArray(doc.rows) || !doc.target) throw new Error(`${path} is not a conformance.json of sxd`);
  return doc;
}
