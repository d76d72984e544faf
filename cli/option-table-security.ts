/** Part of the option table (cli/option-table.ts): how much `sxd test` samples where a row judges whether values can be predicted. */
import { DEFAULT_SECURITY_SAMPLES } from "../harness/run/world-parameters.ts";
import type { OptionSpec } from "./option-spec.ts";

export const SECURITY_OPTIONS = [
  {
    name: "security-samples",
    commands: ["test"],
    type: "string",
    kind: "count",
    arg: "N",
    env: "SXD_SECURITY_SAMPLES",
    default: String(DEFAULT_SECURITY_SAMPLES),
    help: "challenges and contact lists sampled to judge whether nonces and tokens can be predicted; more judge finer and take longer",
  },
] as const satisfies readonly OptionSpec[];
