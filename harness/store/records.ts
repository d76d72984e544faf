/**
 * What the store keeps of a run, read off the document the run wrote (conformance.json,
 * interop.json, limits.json) and nothing else, so that recording a run as it ends (--store) and
 * recording its report folder later (sxd history add) make the same record. Where the run was
 * made (its label, its CI job) is said by whoever records it. Pure.
 */
import { createHash } from "node:crypto";
import { type ConformanceDocument, documentSide, documentSubject } from "../evidence/conformance-document.ts";
import { bundledName } from "../evidence/described-target.ts";
import type { Exchange } from "../evidence/exchange.ts";
import type { InteropDocument } from "../evidence/interop-document.ts";
import type { LimitsDocument, SeriesDocument } from "../evidence/limits-document.ts";
import { formatExchange } from "../evidence/transcript.ts";
import { pointOf } from "../limits/growth.ts";

export type RunKind = "test" | "test-client" | "interop" | "limits";

/** Where a run was made: the implementation's label, its branch, the CI job, the report folder. */
export interface Provenance {
  label: string | null;
  ref: string | null;
  jobUrl: string | null;
  folder: string | null;
}

export interface RowRecord {
  id: string;
  level: string;
  verdict: string;
  reason: string | null;
  /** The scenario that decided a row that did not pass, with what it said. */
  scenario: string | null;
  /** That scenario's last exchange, as JSON with its bodies cut at EXCHANGE_BODY_CHARS. */
  exchange: string | null;
  /** Verdicts that differed between the repeats of one `--repeat` group. */
  intermittent: boolean;
  /** A `--repeat` group's count of each verdict. */
  repeats: Record<string, number> | null;
}

export interface CellRecord {
  client: string;
  server: string;
  task: string;
  result: string;
  blame: string | null;
  why: string;
  evidence: string | null;
}

/** One size of one series of a limits case. */
export interface PointRecord {
  caseId: string;
  series: string;
  unit: string;
  size: number;
  lowerQuartile: number;
  median: number;
  spread: number;
  /** The class of the series' growth (flat, linear, faster, unclear). */
  growth: string | null;
  /** The server's memory at that size (the case's memory series' median), where it was read. */
  memory: number | null;
}

export interface RunRecord extends Provenance {
  /** The run's identity: a hash of its document's bytes. The same document recorded twice is one run. */
  id: string;
  kind: RunKind;
  startedAt: string;
  finishedAt: string;
  /** sxd's version, where the document gives it (interop.json does not). */
  sxdVersion: string | null;
  catalogueVersion: string | null;
  /**
   * What the run judged: a server's base URL, a client's command, an interop matrix's servers;
   * the bundled reference by name (with its variant and faults), its ports new in every run.
   */
  target: string;
  /** The target as the document gives it: its URLs and the description's keys that shaped the run (secrets masked). */
  targetDetail: Record<string, unknown>;
  /** The run's verdict (conformant, not conformant, ...), where it has one. */
  overall: string | null;
  rows: RowRecord[];
  cells: CellRecord[];
  points: PointRecord[];
}

/** A document's bytes as its file holds them, and what they are. */
export interface RunDocument {
  text: string;
  document:
    | { kind: "conformance"; doc: ConformanceDocument }
    | { kind: "interop"; doc: InteropDocument }
    | { kind: "limits"; doc: LimitsDocument };
}

const EXCHANGE_BODY_CHARS = 2048;

export function runIdOf(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

export function runRecord({ text, document }: RunDocument, provenance: Provenance): RunRecord {
  const base = { id: runIdOf(text), ...provenance, rows: [], cells: [], points: [] };
  switch (document.kind) {
    case "conformance":
      return { ...base, ...conformanceRecord(document.doc) };
    case "interop":
      return { ...base, ...interopRecord(document.doc) };
    case "limits":
      return { ...base, ...limitsRecord(document.doc) };
  }
}

type Judged = Omit<RunRecord, keyof Provenance | "id" | "cells" | "points" | "rows"> &
  Partial<Pick<RunRecord, "rows" | "cells" | "points">>;

function conformanceRecord(doc: ConformanceDocument): Judged {
  const { suite } = doc;
  return {
    kind: documentSide(doc) === "client" ? "test-client" : "test",
    startedAt: firstExchangeAt(doc) ?? doc.date,
    finishedAt: doc.date,
    sxdVersion: suite.version,
    catalogueVersion: suite.catalogue ?? null,
    target: doc.target.bundled ? bundledName(doc.target.bundled) : documentSubject(doc),
    targetDetail: {
      ...doc.target,
      ...(doc.peer ? { peer: doc.peer } : {}),
      strict: doc.strict,
      ...(doc.interrupted ? { interrupted: doc.interrupted } : {}),
    },
    overall: doc.overall,
    // A row the run left out (--tags) has no scenario: no verdict of this run.
    rows: doc.rows
      .filter((row) => row.scenarios.length > 0)
      .map((row) => {
        const deciding = row.verdict === "passed" ? undefined : row.scenarios.find((s) => s.status === "failed");
        const exchange = deciding && decidingExchange(deciding);
        return {
          id: row.id,
          level: row.level,
          verdict: row.verdict,
          reason: row.reason ?? null,
          scenario: deciding ? `${deciding.name}${deciding.message ? `: ${deciding.message}` : ""}` : null,
          exchange: exchange ? JSON.stringify(clipped(exchange)) : null,
          intermittent: row.intermittent === true,
          repeats: (row.repeats as Record<string, number> | undefined) ?? null,
        };
      }),
  };
}

/**
 * The exchange a failure names: the one whose request and reply lines (no bodies) its message
 * quotes, where it quotes one (a whole-run check adds its evidence after the scenario's own
 * exchanges; a refusal's scenario may send its control after the refused request); else the
 * scenario's last.
 */
function decidingExchange(scenario: { message?: string; exchanges: Exchange[] }): Exchange | undefined {
  const quoted = new Set((scenario.message ?? "").split("\n").map((line) => line.trim()));
  // The request line, the status lines and the headers: each side's lines up to its bare "<" or ">",
  // after which its body follows.
  const heads = (exchange: Exchange) => {
    const kept: string[] = [];
    let inBody = false;
    for (const line of formatExchange(exchange).split("\n")) {
      if (line === ">" || line === "<") inBody = true;
      else if (/^< \d{3}$/.test(line)) inBody = false;
      if (!inBody && /^[<>] /.test(line)) kept.push(line);
    }
    return kept;
  };
  return (
    scenario.exchanges.find((exchange) => {
      const lines = heads(exchange);
      return lines.length > 0 && lines.every((line) => quoted.has(line));
    }) ?? scenario.exchanges.at(-1)
  );
}

/**
 * When a run began, as its document shows it: its first exchange (the document's date is when
 * it ended); undefined where nothing was exchanged.
 */
function firstExchangeAt(doc: ConformanceDocument): string | undefined {
  let first: string | undefined;
  for (const row of doc.rows)
    for (const scenario of row.scenarios)
      for (const exchange of scenario.exchanges)
        if (first === undefined || exchange.startedAt < first) first = exchange.startedAt;
  return first;
}

function clipped(exchange: Exchange): Exchange {
  const cut = (text: string | undefined) =>
    text !== undefined && text.length > EXCHANGE_BODY_CHARS ? `${text.slice(0, EXCHANGE_BODY_CHARS)}…` : text;
  const { response } = exchange;
  return {
    ...exchange,
    requestBody: cut(exchange.requestBody),
    ...(response ? { response: { ...response, body: cut(response.body) ?? "" } } : {}),
  };
}

/** An interop run's target: its servers by name, for a matrix is known by whom it tries. */
export function interopTarget(doc: InteropDocument): string {
  return `interop: ${doc.servers
    .map((s) => s.name)
    .sort()
    .join(", ")}`;
}

function interopRecord(doc: InteropDocument): Judged {
  return {
    kind: "interop",
    startedAt: doc.startedAt,
    finishedAt: doc.finishedAt,
    sxdVersion: null,
    catalogueVersion: null,
    target: interopTarget(doc),
    targetDetail: {
      servers: doc.servers.map((s) => ({ name: s.name, urls: s.urls })),
      clients: doc.clients.map((c) => c.name),
      shard: doc.shard,
    },
    overall: null,
    cells: doc.cells.map((c) => ({
      client: c.client,
      server: c.server,
      task: c.task,
      result: c.result,
      blame: c.blame,
      why: c.why,
      evidence: c.evidence || null,
    })),
  };
}

function limitsRecord(doc: LimitsDocument): Judged {
  return {
    kind: "limits",
    startedAt: doc.startedAt,
    finishedAt: new Date(Date.parse(doc.startedAt) + doc.elapsedMs).toISOString(),
    sxdVersion: doc.version,
    catalogueVersion: null,
    target: doc.bundled ? bundledName(doc.bundled) : doc.target,
    targetDetail: {
      baseUrl: doc.target,
      ...(doc.described ? { described: doc.described } : {}),
      ...(doc.bundled ? { bundled: doc.bundled } : {}),
      repeats: doc.repeats,
      memory: doc.memory,
    },
    overall: null,
    points: doc.cases.flatMap((c) => c.series.flatMap((series) => pointsOf(c.id, series, c.memory))),
  };
}

function pointsOf(caseId: string, series: SeriesDocument, memory: SeriesDocument | undefined): PointRecord[] {
  return series.points.map((p) => ({
    caseId,
    series: series.name,
    unit: series.unit,
    size: p.size,
    lowerQuartile: p.repeats.length > 0 ? pointOf(p.size, p.repeats).low : p.median,
    median: p.median,
    spread: p.spread,
    growth: series.growth ?? null,
    memory: memory?.points.find((m) => m.size === p.size)?.median ?? null,
  }));
}
