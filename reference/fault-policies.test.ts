// Each fault mode must change at least one decision of its behaviour's policy: a mode the
// policy does not read would break nothing, and its fault test would fail for a reason far
// from the cause.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { digestFaults } from "./digest/faults.ts";
import { type DigestPolicy, digestPolicy } from "./digest/policy.ts";
import { type ExportPolicy, exportFaults, exportPolicy } from "./export/faults.ts";
import type { Entry } from "./snapshots/entry.ts";
import { type SnapshotPolicy, snapshotFaults, snapshotPolicy } from "./snapshots/faults.ts";

const QOPS = [undefined, "auth", "auth-int"] as const;
const ALGORITHMS = ["SHA-256", "MD5"] as const;

/** A policy's decisions as text, its functions asked on inputs that tell the modes apart. */
function digestDecisions(policy: DigestPolicy): string {
  return JSON.stringify({
    ...policy,
    algorithmTakenFor: ["SHA-256", undefined, "", "X-UNKNOWN"].map((named) =>
      policy.algorithmTakenFor(named, ["SHA-256", "MD5"]),
    ),
    acceptsNc: ["00000001", "000001", "1", "0000000g"].flatMap((nc) =>
      ALGORITHMS.map((algorithm) => policy.acceptsNc(nc, algorithm)),
    ),
    trustsUnissuedNonce: [true, false].map((current) =>
      policy.trustsUnissuedNonce("n", { timestampCurrent: () => current }),
    ),
    checksResponse: QOPS.flatMap((qop) => ALGORITHMS.map((algorithm) => policy.checksResponse(qop, algorithm))),
    comparesResponsePrefix: ALGORITHMS.map(policy.comparesResponsePrefix),
    echoesRefusedNonce: ALGORITHMS.map(policy.echoesRefusedNonce),
    offersBasicOnRefusal: ALGORITHMS.map(policy.offersBasicOnRefusal),
    formula: QOPS.map(policy.formula),
    hashesEmptyAuthIntBody: ALGORITHMS.map(policy.hashesEmptyAuthIntBody),
    logsNonceUse: QOPS.flatMap((qop) => ALGORITHMS.map((algorithm) => policy.logsNonceUse(qop, algorithm))),
    sendsAuthenticationInfo: QOPS.flatMap((qop) =>
      ALGORITHMS.map((algorithm) => policy.sendsAuthenticationInfo(qop, algorithm)),
    ),
  });
}

function snapshotDecisions(policy: SnapshotPolicy): string {
  const version = (k: number, title: string): Entry => ({
    id: "urn:x",
    title,
    authorName: `Author ${k}`,
    content: { text: `text ${k}` },
  });
  return JSON.stringify({ ...policy, shownSnapshot: policy.shownSnapshot(version(1, "same"), 1, version(2, "same")) });
}

function exportDecisions(policy: ExportPolicy): string {
  return JSON.stringify(policy);
}

function checkEveryModeCounts<P>(
  faults: object,
  policyOf: (active: ReadonlySet<string>) => P,
  decisions: (policy: P) => string,
) {
  const rfc = decisions(policyOf(new Set()));
  const idle = Object.keys(faults).filter((fault) => decisions(policyOf(new Set([fault]))) === rfc);
  assert.deepEqual(idle, [], "fault modes that change no decision of the policy");
}

describe("every fault mode changes its policy", () => {
  it("digest", () => checkEveryModeCounts(digestFaults, digestPolicy, digestDecisions));
  it("snapshots", () => checkEveryModeCounts(snapshotFaults, snapshotPolicy, snapshotDecisions));
  it("export", () => checkEveryModeCounts(exportFaults, exportPolicy, exportDecisions));
});
