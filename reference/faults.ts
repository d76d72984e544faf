/**
 * Faulty modes of the reference (`sxd serve --fault NAME`). Each breaks named rows on
 * purpose, so the project's tests can prove that the suite notices.
 */

import { digestFaults } from "./digest/faults.ts";
import { exportFaults } from "./export/faults.ts";
import type { FaultInfo } from "./fault-info.ts";
import { snapshotFaults } from "./snapshots/faults.ts";

export const FAULTS = { ...snapshotFaults, ...digestFaults, ...exportFaults } satisfies Record<string, FaultInfo>;

export type FaultName = keyof typeof FAULTS;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
