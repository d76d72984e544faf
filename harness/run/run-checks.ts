/**
 * What a person can get wrong in a run's settings, checked before the target is asked anything
 * and before a report is touched: each ends the run with one line (a UsageError, exit 2).
 */
import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse as parseTags } from "@cucumber/tag-expressions";
import { UsageError } from "../errors.ts";

export function checkHarFile(harFile: string | undefined): void {
  if (harFile === undefined) return;
  const folder = dirname(resolve(harFile));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new UsageError(`--har ${harFile}: the folder ${folder} does not exist`);
  if (existsSync(harFile) && statSync(harFile).isDirectory())
    throw new UsageError(`--har ${harFile} is a directory; give a file name`);
}

export function checkTagExpression(tags: string): void {
  try {
    parseTags(tags);
  } catch (error) {
    // "Tag expression "@a and" could not be parsed because of syntax error: Expected operand."
    const why = /syntax error: (.*)$/.exec((error as Error).message)?.[1] ?? (error as Error).message;
    throw new UsageError(`--tags "${tags}" is not a tag expression: ${why}`);
  }
}
