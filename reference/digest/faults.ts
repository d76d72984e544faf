import type { FaultInfo } from "../context.ts";

export const digestFaults = {} satisfies Record<string, FaultInfo>;
