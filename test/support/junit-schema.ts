/**
 * Validates a junit.xml against the Ant/Jenkins junit schema (test/fixtures/junit-10.xsd) with
 * xmllint (Debian's libxml2-utils; scripts/setup-xmllint.sh installs it on CI). Where xmllint
 * is missing, says so: the caller skips its test with that message.
 */
import { spawnSync } from "node:child_process";

const SCHEMA = new URL("../fixtures/junit-10.xsd", import.meta.url).pathname;

export type Validation = { missing: string } | { valid: boolean; output: string };

export function validateJunit(file: string): Validation {
  const run = spawnSync("xmllint", ["--noout", "--schema", SCHEMA, file], { encoding: "utf8" });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") {
    return { missing: "xmllint is missing: run scripts/setup-xmllint.sh (as root) to validate junit.xml" };
  }
  return { valid: run.status === 0, output: `${run.stdout}${run.stderr}` };
}
