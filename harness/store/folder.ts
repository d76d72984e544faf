/**
 * The runs a report folder holds, as their documents' bytes: conformance.json (sxd test,
 * sxd test-client), interop.json (sxd interop), limits.json (sxd limits), each a run of its
 * own. Both ways into the store read them here: a run recorded as it ends, and
 * `sxd history add DIR` later.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileProblem, UsageError } from "../errors.ts";
import type { ConformanceDocument } from "../evidence/conformance-document.ts";
import { INTEROP_KIND, type InteropDocument } from "../evidence/interop-document.ts";
import type { LimitsDocument } from "../evidence/limits-document.ts";
import { REPORT_FILES } from "../evidence/report-folder.ts";
import type { RunDocument } from "./records.ts";

export type DocumentKind = RunDocument["document"]["kind"];

/** Each kind's document in a report folder. */
export const DOCUMENT_FILES: Readonly<Record<DocumentKind, string>> = {
  conformance: REPORT_FILES.conformanceJson,
  interop: REPORT_FILES.interopJson,
  limits: REPORT_FILES.limitsJson,
};

/** A file's modification time, in ms; undefined where there is no such file. */
export function writtenAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The documents of the kinds asked for that the folder holds; a usage error where one is unreadable or not sxd's. */
export function folderDocuments(
  folder: string,
  kinds: readonly DocumentKind[] = ["conformance", "interop", "limits"],
): RunDocument[] {
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${folder} is not a folder of reports`);
  return kinds.flatMap((kind) => {
    const path = join(folder, DOCUMENT_FILES[kind]);
    if (writtenAt(path) === undefined) return [];
    return [documentOf(kind, path)];
  });
}

function documentOf(kind: DocumentKind, path: string): RunDocument {
  let text: string;
  let parsed: unknown;
  try {
    text = readFileSync(path, "utf8");
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${error instanceof SyntaxError ? "not JSON" : fileProblem(error)}`);
  }
  if (!isOfKind(kind, parsed)) throw new UsageError(`${path} is not a ${DOCUMENT_FILES[kind]} of sxd`);
  return { text, document: { kind, doc: parsed } as RunDocument["document"] };
}

function isOfKind(kind: DocumentKind, value: unknown): value is ConformanceDocument | InteropDocument | LimitsDocument {
  if (value === null || typeof value !== "object") return false;
  const doc = value as Record<string, unknown>;
  switch (kind) {
    case "conformance":
      return typeof (doc.target as { baseUrl?: unknown })?.baseUrl === "string" && Array.isArray(doc.rows);
    case "interop":
      return doc.kind === INTEROP_KIND && Array.isArray(doc.cells);
    case "limits":
      return doc.tool === "sxd limits" && Array.isArray(doc.cases);
  }
}
