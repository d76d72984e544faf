/**
 * `sxd test`: where the target is (or the bundled reference, started here), the list of known
 * failures, the process's signals, and then one conformance run (harness/run/run.ts).
 */
import { readFileSync } from "node:fs";
import { describedForPeer, standInSettings } from "../harness/description/peer.ts";
import { resolveDescription, type TargetDescription } from "../harness/description/target.ts";
import { fileProblem, UsageError } from "../harness/errors.ts";
import type { BundledReference } from "../harness/evidence/described-target.ts";
import type { Io } from "../harness/io.ts";
import { loadRows } from "../harness/judging/catalogue.ts";
import { runConformance, type SuiteRun } from "../harness/run/run.ts";
import { parseJsonText } from "../lib/json-text.ts";
import {
  REFERENCE_DESCRIPTION,
  type ReferenceOptions,
  type RunningPeer,
  type RunningReference,
  referenceMode,
  startPeer,
  startReference,
} from "../reference/index.ts";
import type { TestSettings } from "./options.ts";
import { type PeerSetting, peerUrl } from "./peer-options.ts";
import { processSignals, signalExitCode } from "./signals.ts";

export async function runSuite(settings: TestSettings, io: Io): Promise<SuiteRun> {
  const expectedFailures = settings.expectFailFile ? readExpectedFailures(settings.expectFailFile) : undefined;
  const ca = settings.caFile === undefined ? undefined : readCertificates(settings.caFile);
  let reference: RunningReference | undefined;
  let peer: RunningPeer | undefined;
  try {
    let target = settings.target;
    let outageMessagingUrl: string | undefined;
    let bundledMode: Pick<ReferenceOptions, "faults" | "variant"> | undefined;
    if (!target) {
      const bundled = await startBundled(settings);
      reference = bundled.reference;
      outageMessagingUrl = bundled.outageMessagingUrl;
      target = bundled.target;
      bundledMode = bundled.mode;
    }
    if (settings.peer) {
      target = describedForPeer(target, settings.peer.side);
      peer = await startOwnPeer(settings.peer, target, settings.maxBodyBytes);
    }
    const { layers, expectFailFile, caFile, insecure, referenceFaults, referenceVariant, ...run } = settings;
    const suiteRun = await runConformance(
      {
        ...run,
        target,
        expectedFailures,
        outageMessagingUrl,
        ...(bundledMode ? { bundled: bundledReference(bundledMode) } : {}),
        peer: peer && { side: peer.side, url: peer.url, controlUrl: peer.controlUrl },
        tls: { ca, insecure },
        interruptions: processSignals,
      },
      io,
    );
    return suiteRun.interrupted ? { ...suiteRun, exitCode: signalExitCode(suiteRun.interrupted) } : suiteRun;
  } finally {
    await Promise.all([reference?.close(), peer?.close()]);
  }
}

/** sxd's own server of the side the team did not bring (--peer), asking and serving as the description says. */
async function startOwnPeer(
  setting: PeerSetting,
  target: TargetDescription,
  maxRecordedBody: number | undefined,
): Promise<RunningPeer> {
  const otherUrl = setting.side === "contacts" ? target.messagingUrl : target.contactsUrl;
  if (otherUrl === undefined) throw new UsageError(`--peer ${setting.side}: the team's server has no URL`);
  try {
    return await startPeer({
      side: setting.side,
      host: setting.host,
      port: setting.port,
      publicUrl: peerUrl(setting.port, setting.host),
      otherUrl,
      tokenKey: setting.tokenKey,
      ...standInSettings(setting.side, target),
      maxRecordedBody,
    });
  } catch (error) {
    throw new UsageError(
      `--peer ${setting.side}: cannot listen on ${setting.host} port ${setting.port}: ${fileProblem(error)}`,
    );
  }
}

async function startBundled(settings: TestSettings): Promise<{
  reference: RunningReference;
  target: TargetDescription;
  outageMessagingUrl: string;
  mode: Pick<ReferenceOptions, "faults" | "variant">;
}> {
  const { reference, target, mode } = await startBundledReference(
    settings.referenceFaults,
    settings.referenceVariant,
    settings.layers,
  );
  // A second messaging server whose contacts server is down, for the outage row (EXP-8).
  const outage = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    servers: ["messaging"],
    publicUrls: { contacts: "http://127.0.0.1:9" },
    ...mode,
  });
  const close = reference.close;
  reference.close = async () => {
    await Promise.all([close(), outage.close()]);
  };
  return { reference, target, outageMessagingUrl: outage.urls.messaging, mode };
}

/** The bundled reference's mode as the reports name it. */
export function bundledReference(mode: Pick<ReferenceOptions, "faults" | "variant">): BundledReference {
  return { variant: mode.variant ?? "standard", faults: [...(mode.faults ?? [])] };
}

/**
 * The bundled reference on free ports, in this process, with the faults and variant given, and
 * its description under the user's layers (sxd test, sxd limits).
 */
export async function startBundledReference(
  faults: string[],
  variant: string | undefined,
  layers: Partial<TargetDescription>[],
  options: Pick<ReferenceOptions, "contactsFile" | "longLists"> = {},
): Promise<{
  reference: RunningReference;
  target: TargetDescription;
  mode: Pick<ReferenceOptions, "faults" | "variant">;
}> {
  const mode = referenceMode(faults, variant);
  if (!mode.ok) throw new UsageError(mode.error);
  const reference = await startReference({
    host: "127.0.0.1",
    ports: { base: 0, contacts: 0, messaging: 0 },
    ...mode.value,
    ...options,
  });
  const resolved = resolveDescription([
    REFERENCE_DESCRIPTION,
    ...layers,
    { baseUrl: reference.urls.base, contactsUrl: reference.urls.contacts, messagingUrl: reference.urls.messaging },
  ]);
  if (!resolved.ok) {
    await reference.close();
    throw new UsageError(resolved.error);
  }
  return { reference, target: resolved.value, mode: mode.value };
}

export function readCertificates(path: string): string {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read --ca ${path}: ${fileProblem(error)}`);
  }
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new UsageError(`--ca ${path}: no PEM certificate in it`);
  return pem;
}

/** The known-failures file: row IDs (of these rows: the server's unless told) to reasons. */
export function readExpectedFailures(path: string, rows = loadRows()): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the expected-failure list ${path}: ${fileProblem(error)}`);
  }
  const json = parseJsonText(text);
  if (!json.ok) throw new UsageError(`${path}${json.place}: not valid JSON (${json.reason})`);
  const parsed: unknown = json.value;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`${path}: expected an object of row IDs to reasons, e.g. {"SNAP-11": "fixed in 2.1"}`);
  }
  const known = new Set(rows.map((r) => r.id));
  const list = new Map<string, string>();
  for (const [id, reason] of Object.entries(parsed)) {
    if (!known.has(id)) throw new UsageError(`${path}: "${id}" is not a row ID`);
    list.set(id, String(reason));
  }
  return list;
}
