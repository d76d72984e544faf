/**
 * conformance.json from a run's judgement: one entry per row (level, verdict, reason) with its
 * scenarios and the exchanges they made (the shape is conformance-document.ts). Every other
 * report is built from this document.
 */

import type { PeerRun } from "../description/peer.ts";
import type { TargetDescription } from "../description/target.ts";
import type { ClientEvidence } from "../evidence/client-evidence.ts";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import { type BundledReference, describedKeys } from "../evidence/described-target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import { catalogueVersion } from "../judging/catalogue.ts";
import { EXCHANGES_MEDIA_TYPE, observationsOf } from "../judging/outcomes.ts";
import type { Judgement } from "../judging/verdicts.ts";
import { suiteVersion } from "../package.ts";

export interface ReportInput {
  reportDir: string;
  target: Pick<TargetDescription, "baseUrl" | "contactsUrl" | "messagingUrl">;
  /** The description a server run read: conformance.json keeps the keys that shaped it, secrets masked. */
  description?: TargetDescription;
  /** The run started the bundled reference: which one. */
  bundled?: BundledReference;
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
  /** Where sxd played one side of the export itself (--peer). */
  peer?: PeerRun;
  /** A client run (`sxd test-client`): the command and each run of a task, with what it sent. */
  client?: ClientEvidence;
}

export function conformanceDocument(input: ReportInput): ConformanceDocument {
  const { target, judgement } = input;
  return {
    suite: { name: "sxd", version: suiteVersion(), catalogue: catalogueVersion() },
    target: {
      baseUrl: target.baseUrl,
      contactsUrl: target.contactsUrl,
      messagingUrl: target.messagingUrl,
      ...(input.description ? { described: describedKeys(input.description) } : {}),
      ...(input.bundled ? { bundled: input.bundled } : {}),
    },
    ...(input.peer ? { peer: input.peer.side } : {}),
    date: new Date().toISOString(),
    strict: input.strict,
    overall: judgement.overall,
    ...(input.interrupted ? { interrupted: input.interrupted } : {}),
    ...(input.warnings?.length ? { warnings: input.warnings } : {}),
    ...(input.client ? { client: evidenceRuns(input.client, judgement) } : {}),
    ...(judgement.repeated ? { repeated: judgement.repeated } : {}),
    rows: judgement.rows.map((r) => ({
      id: r.row.id,
      level: r.row.level,
      rule: r.row.rule,
      verdict: r.verdict,
      reason: r.reason,
      ...(r.repeats
        ? { repeats: r.repeats, intermittent: r.intermittent ?? false, evidenceRepeat: r.evidenceRepeat }
        : {}),
      scenarios: r.scenarios.map((s) => ({
        name: s.name,
        location: s.location,
        status: s.status,
        message: s.message,
        ...(observationsOf(s.attachments).length > 0 ? { observed: observationsOf(s.attachments) } : {}),
        exchanges: s.attachments
          .filter((a) => a.mediaType === EXCHANGES_MEDIA_TYPE)
          .flatMap((a) => JSON.parse(a.body) as Exchange[]),
      })),
    })),
  };
}

/**
 * A client's runs as the document keeps them: in a group of repeats, only those of the repeats
 * some row shows as its evidence, so N repeats do not make the report N times as large.
 */
function evidenceRuns(client: ClientEvidence, judgement: Judgement): ClientEvidence {
  const shown = new Set(judgement.rows.filter((r) => r.scenarios.length > 0).map((r) => r.evidenceRepeat));
  return { ...client, runs: client.runs.filter((run) => run.repeat === undefined || shown.has(run.repeat)) };
}
