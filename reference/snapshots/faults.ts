import type { FaultInfo } from "../context.ts";

export const snapshotFaults = {} satisfies Record<string, FaultInfo>;
