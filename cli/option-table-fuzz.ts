/**
 * The options of `sxd fuzz` of its own; it shares every option that says where the target is or
 * how to reach it with `sxd test` (those marked `target`), and --report-dir.
 */
import type { OptionSpec } from "./option-spec.ts";

export const FUZZ_OPTIONS = [
  {
    name: "seed",
    commands: ["fuzz"],
    type: "string",
    kind: "whole",
    arg: "N",
    env: "SXD_SEED",
    defaultText: "drawn and printed",
    help: "seed of the random part; the same seed draws the same requests",
  },
  {
    name: "budget",
    commands: ["fuzz"],
    type: "string",
    arg: "N|Ns",
    env: "SXD_BUDGET",
    default: "400",
    help: "how long the campaign runs: N requests, or N seconds written Ns",
  },
  {
    name: "replay",
    commands: ["fuzz"],
    type: "string",
    arg: "FILE",
    help: "run the failure written in FILE again over a fresh nonce, three times",
  },
  {
    name: "show-secrets",
    commands: ["fuzz"],
    type: "boolean",
    help: "write the password into the failure files (left out by default)",
  },
] as const satisfies readonly OptionSpec[];
