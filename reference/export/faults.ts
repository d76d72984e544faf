import type { FaultInfo } from "../context.ts";

export const exportFaults = {} satisfies Record<string, FaultInfo>;
