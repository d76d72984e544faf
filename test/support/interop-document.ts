// A small interop.json for the tests of its presentation (the HTML matrix, the docs site), built
// by hand so they never depend on the engine: two clients, two servers, and a cell of each kind.
import type {
  BrokenRow,
  InteropCell,
  InteropClient,
  InteropDocument,
  InteropServer,
  InteropTask,
  OwnVerdict,
} from "../../harness/evidence/interop-document.ts";

export function ownVerdict(failedRows: string[] = [], extra: Partial<OwnVerdict> = {}): OwnVerdict {
  return {
    source: "computed",
    exitCode: failedRows.length > 0 ? 1 : 0,
    verdict: failedRows.length > 0 ? "non-conformant" : "conformant",
    failedRows,
    warnedRows: [],
    ...extra,
  };
}

export function server(name: string, tasks: InteropTask[], verdict = ownVerdict()): InteropServer {
  return { name, urls: { base: `http://127.0.0.1:1/${name}` }, tasks, verdict };
}

export function client(name: string, verdict = ownVerdict()): InteropClient {
  return { name, command: `./clients/${name}.sh`, verdict };
}

export function cell(
  clientName: string,
  serverName: string,
  task: InteropTask,
  result: InteropCell["result"],
  blame: InteropCell["blame"] = null,
  rows: { client?: BrokenRow[]; server?: BrokenRow[] } = {},
  alsoBroken: { client?: BrokenRow[]; server?: BrokenRow[] } = {},
): InteropCell {
  return {
    client: clientName,
    server: serverName,
    task,
    result,
    blame,
    why: result === "failed" ? "the client exited 1" : result,
    rows: { client: rows.client ?? [], server: rows.server ?? [] },
    alsoBroken: { client: alsoBroken.client ?? [], server: alsoBroken.server ?? [] },
    evidence: `cells/${clientName}/${serverName}/${task}/`,
  };
}

export function interopDocument(parts: Partial<InteropDocument> = {}): InteropDocument {
  return {
    kind: "sxd-interop",
    version: 1,
    startedAt: "2026-01-01T00:00:00Z",
    finishedAt: "2026-01-01T00:01:00Z",
    shard: { index: 1, count: 1 },
    tasks: ["digest-get", "digest-post", "update", "history", "export"],
    servers: [],
    clients: [],
    cells: [],
    ...parts,
  };
}

/**
 * The tests' matrix: curl answers an algorithm nobody offered (client's fault) on `strict`;
 * `quoting` quotes its algorithm (server's fault) for wget; curl and `quoting` share no algorithm
 * (neither); wget does not do update (unsupported); `strict` serves no export (not applicable).
 */
export function sampleInterop(): InteropDocument {
  const clientRow = { id: "CDIG-3", level: "must", reason: "answered SHA-512, which no challenge offered" };
  const serverRow = { id: "DIG-14", level: "should", reason: 'the challenge says algorithm="sha-256"' };
  return interopDocument({
    tasks: ["digest-get", "update", "export"],
    servers: [
      server("strict", ["digest-get", "update"]),
      server(
        "quoting",
        ["digest-get", "update", "export"],
        ownVerdict(["DIG-14"], { report: "servers/quoting/conformance.json" }),
      ),
    ],
    clients: [client("curl", ownVerdict(["CDIG-3"])), client("wget")],
    cells: [
      cell("curl", "strict", "digest-get", "failed", "client", { client: [clientRow] }),
      cell("curl", "strict", "update", "succeeded"),
      cell("curl", "strict", "export", "not applicable"),
      cell("curl", "quoting", "digest-get", "failed", "neither"),
      cell("curl", "quoting", "update", "succeeded"),
      cell("curl", "quoting", "export", "succeeded"),
      cell("wget", "strict", "digest-get", "succeeded"),
      cell("wget", "strict", "update", "unsupported"),
      cell("wget", "strict", "export", "not applicable"),
      cell("wget", "quoting", "digest-get", "failed", "server", { server: [serverRow] }),
      cell("wget", "quoting", "update", "unsupported"),
      cell("wget", "quoting", "export", "failed", "both", { client: [clientRow], server: [serverRow] }),
    ],
  });
}
