/**
 * What a run's documents (conformance.json, limits.json) say of the target beside its URLs: the
 * description's keys that shaped the run (each behaviour's section and the extra headers), with
 * its secrets masked as the reports mask a configured header, and, for a run against the bundled
 * reference, which one (its variant and faults), whose ports change with every run. Pure.
 */
import type { TargetDescription } from "../description/target.ts";
import { masked } from "./exchange.ts";

/** The description's keys a run read, as its documents keep them: secrets masked, empty sections left out. */
export type DescribedKeys = Partial<Pick<TargetDescription, "snapshots" | "digest" | "export" | "headers">>;

/** The bundled reference a run started (sxd test or sxd limits with no URL). */
export interface BundledReference {
  variant: string;
  faults: string[];
}

/** What stands in a document for a secret of the description. */
export const SECRET_MASK = "•••";

export function describedKeys(target: TargetDescription): DescribedKeys {
  const { snapshots, digest, headers } = target;
  const kept: DescribedKeys = {
    snapshots,
    digest: digest.password === undefined ? digest : { ...digest, password: SECRET_MASK },
    export: target.export,
    ...(headers ? { headers: maskedHeaders(headers) } : {}),
  };
  return Object.fromEntries(
    Object.entries(kept).filter(([, section]) => Object.keys(section as object).length > 0),
  ) as DescribedKeys;
}

function maskedHeaders(headers: NonNullable<TargetDescription["headers"]>): DescribedKeys["headers"] {
  return Object.fromEntries(
    Object.entries(headers).map(([server, fields]) => [
      server,
      Object.fromEntries(Object.entries(fields ?? {}).map(([name, value]) => [name, masked(name, value)])),
    ]),
  );
}

/**
 * The bundled reference as a target's name, the same in every run of it whatever its ports:
 * "the bundled reference", with its variant where not the standard one and its faults.
 */
export function bundledName(bundled: BundledReference): string {
  const mode = [
    ...(bundled.variant === "standard" ? [] : [`${bundled.variant} variant`]),
    ...(bundled.faults.length > 0 ? [`faults ${[...bundled.faults].sort().join(", ")}`] : []),
  ];
  return `the bundled reference${mode.length > 0 ? ` (${mode.join("; ")})` : ""}`;
}
