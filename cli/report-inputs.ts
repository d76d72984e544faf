/**
 * What `sxd report merge` is given, as the report files to merge. Reports arrive as a CI keeps
 * them: a report file; a run's report folder (its interop.json, else its conformance.json); a
 * folder of such folders (a matrix's artifacts downloaded into one place); and any of these as a
 * glob the shell left as it was (quoted, or handed on by a CI that does not expand it).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../harness/errors.ts";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import { hasGlob, segmentMatcher } from "../lib/glob.ts";

/** A folder's own report, the interop run's first. */
const FOLDER_REPORTS = [REPORT_FILES.interopJson, REPORT_FILES.conformanceJson];

/** The report files the arguments name, in their order (a glob's and a folder's matches sorted). */
export function reportFiles(args: readonly string[]): string[] {
  return args.flatMap((arg) => {
    if (existsSync(arg) || !hasGlob(arg)) return [filesOf(arg)].flat();
    const matches = globMatches(arg);
    if (matches.length === 0) throw new UsageError(`${arg} matches no file or folder`);
    return matches.flatMap(filesOf);
  });
}

/**
 * A path as the report files it stands for: a file itself (one that does not exist too, so that
 * reading it says so); a folder its own report, else those of the folders inside it.
 */
function filesOf(path: string): string | string[] {
  if (!isFolder(path)) return path;
  const own = reportIn(path);
  if (own) return own;
  const inside = readdirSync(path)
    .sort()
    .map((name) => join(path, name))
    .filter(isFolder)
    .map(reportIn)
    .filter((file) => file !== undefined);
  if (inside.length === 0)
    throw new UsageError(`${path} holds no ${FOLDER_REPORTS.join(" or ")}, nor does any folder in it`);
  return inside;
}

function reportIn(folder: string): string | undefined {
  return FOLDER_REPORTS.map((name) => join(folder, name)).find(existsSync);
}

function isFolder(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** The paths a glob matches, segment by segment from its first, sorted as a shell sorts them. */
function globMatches(pattern: string): string[] {
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/").filter((segment) => segment.length > 0);
  let paths = [absolute ? "/" : ""];
  for (const segment of segments) {
    const matcher = segmentMatcher(segment);
    paths = paths.flatMap((base) => {
      if (!matcher) return [join(base, segment)];
      const folder = base === "" ? "." : base;
      if (!isFolder(folder)) return [];
      return readdirSync(folder)
        .filter((name) => matcher.test(name))
        .sort()
        .map((name) => join(base, name));
    });
  }
  return paths.filter(existsSync);
}
