/**
 * The options of `sxd limits` of its own; it shares every option that says where the target is
 * or how to reach it with `sxd test` (those marked `target`), and --deadline and --report-dir.
 */
import type { OptionSpec } from "./option-spec.ts";

export const DEFAULT_LIMIT_REPEATS = 7;

export const LIMITS_OPTIONS = [
  {
    name: "cases",
    commands: ["limits"],
    type: "string",
    arg: "LIM-n,..",
    env: "SXD_CASES",
    defaultText: "every case",
    help: "the cases to run, e.g. LIM-1,LIM-4",
  },
  {
    name: "sizes",
    commands: ["limits"],
    type: "string",
    arg: "F|LIM-n=A,B,..",
    multiple: true,
    defaultText: "those of the catalogue (sxd rows)",
    help: "lower the sizes: a factor for every case (0.1), or one case's sizes (LIM-1=10,50,200); repeatable",
  },
  {
    name: "repeats",
    commands: ["limits"],
    type: "string",
    kind: "count",
    arg: "N",
    env: "SXD_REPEATS",
    default: String(DEFAULT_LIMIT_REPEATS),
    help: "times each operation is measured at each size (the median and spread are of these)",
  },
  {
    name: "fail-on",
    commands: ["limits"],
    type: "string",
    arg: "CLASS",
    env: "SXD_FAIL_ON",
    defaultText: "none: exit 0 whatever was measured",
    help: "linear or faster: exit 1 where a case grows so (or worse) beyond what it expects; a finding exits 1 too",
  },
  {
    name: "server-pid",
    commands: ["limits"],
    type: "string",
    kind: "count",
    arg: "PID",
    env: "SXD_SERVER_PID",
    defaultText: "the bundled reference's; none for a URL",
    help: "the process of a server on this machine, whose resident memory is read after each size",
  },
] as const satisfies readonly OptionSpec[];
