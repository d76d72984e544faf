/**
 * `sxd history`: the runs of a store of results, filtered, as text, history.json (--json) or a
 * page (--html DIR); `sxd history add DIR...` records report folders written earlier, with the
 * records --store would have made (harness/store/).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileProblem, UsageError } from "../harness/errors.ts";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import { folderDocuments } from "../harness/store/folder.ts";
import type { HistoryDocument, HistoryFilter } from "../harness/store/history.ts";
import { runRecord } from "../harness/store/records.ts";
import { isPostgresUrl } from "../harness/store/sql.ts";
import { commandHelp } from "./help.ts";
import type { CommandIo } from "./io.ts";
import { type GivenOptions, parseOptions } from "./option-parse.ts";
import { openedStore, provenanceOf, recordRuns } from "./store-run.ts";

export async function runHistory(argv: string[], io: CommandIo): Promise<number> {
  const parsed = parseOptions("history", argv, io.env, true);
  if (!parsed.ok) throw new UsageError(parsed.error);
  const given = parsed.value;
  if (given.help) {
    io.stdout.write(commandHelp("history"));
    return 0;
  }
  const location = given.text("store");
  if (location === undefined)
    throw new UsageError("sxd history needs a store: --store FILE|URL (or SXD_STORE), as the runs were recorded with");
  const [action, ...folders] = given.positionals;
  if (action === "add") return addFolders(location, folders, given, io);
  if (action !== undefined)
    throw new UsageError(`sxd history takes no "${action}": sxd history [options], or sxd history add DIR...`);
  return showHistory(location, given, io);
}

async function addFolders(location: string, folders: string[], given: GivenOptions, io: CommandIo): Promise<number> {
  if (folders.length === 0) throw new UsageError("usage: sxd history add DIR... (report folders of sxd runs)");
  const provenance = provenanceOf(given.text("label"), io.env);
  const runs = folders.flatMap((folder) => {
    const documents = folderDocuments(folder);
    if (documents.length === 0)
      throw new UsageError(
        `${folder} holds no ${REPORT_FILES.conformanceJson}, ${REPORT_FILES.interopJson} or ${REPORT_FILES.limitsJson}`,
      );
    return documents.map((document) => runRecord(document, { ...provenance, folder: resolve(folder) }));
  });
  // The store is checked before anything is written, as for a run.
  await (await openedStore(location)).close();
  const { added, error } = await recordRuns(location, runs, io);
  if (error !== undefined) {
    io.stderr.write(`sxd: ${error}\n`);
    return 2;
  }
  io.stdout.write(`added ${added} of ${runs.length} runs\n`);
  return 0;
}

async function showHistory(location: string, given: GivenOptions, io: CommandIo): Promise<number> {
  if (!isPostgresUrl(location) && !existsSync(location))
    throw new UsageError(`no store at ${location}: runs are recorded there with --store, or sxd history add`);
  const filter: HistoryFilter = {
    ...optional("target", given.text("target")),
    ...optional("label", given.text("label")),
    ...optional("since", dateOf("--since", given.text("since"), "start")),
    ...optional("until", dateOf("--until", given.text("until"), "end")),
    ...optional("rows", rowsOf(given.list("row"))),
  };
  const { historyOf, notesWanted, withNotes } = await import("../harness/store/history.ts");
  const { noteKey } = await import("../harness/store/store.ts");
  const store = await openedStore(location);
  let history: HistoryDocument;
  try {
    const plain = historyOf(await store.runs(filter), store.where, filter);
    // Why each stretch of a row that did not pass began: read for those runs' rows alone.
    const notes = await store.notes(notesWanted(plain));
    history = withNotes(plain, (run, row) => notes.get(noteKey(run, row)));
  } catch (error) {
    throw new UsageError((error as Error).message);
  } finally {
    await store.close();
  }
  const json = `${JSON.stringify(history, null, 2)}\n`;
  const htmlDir = given.text("html");
  if (htmlDir !== undefined) {
    const { historyPage } = await import("../harness/store/history-page.ts");
    try {
      mkdirSync(htmlDir, { recursive: true });
      writeFileSync(join(htmlDir, REPORT_FILES.historyJson), json);
      writeFileSync(join(htmlDir, REPORT_FILES.historyHtml), historyPage(history));
    } catch (error) {
      throw new UsageError(`cannot write the history to ${htmlDir}: ${fileProblem(error)}`);
    }
  }
  if (given.switch("json")) io.stdout.write(json);
  else {
    const { historyText } = await import("../harness/store/history-text.ts");
    io.stdout.write(historyText(history));
    if (htmlDir !== undefined) io.stdout.write(`wrote ${join(htmlDir, REPORT_FILES.historyHtml)}\n`);
  }
  return 0;
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** --row, each maybe a comma-separated list; upper-case as the catalogue spells rows (cells keep their case). */
function rowsOf(values: readonly string[]): string[] | undefined {
  const rows = values
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
  return rows.length === 0 ? undefined : rows.map((r) => (/^[a-z]+-\d+$/i.test(r) ? r.toUpperCase() : r));
}

/** A date or time as the store compares them (ISO 8601, UTC); a date alone spans its day. */
function dateOf(flag: string, text: string | undefined, end: "start" | "end"): string | undefined {
  if (text === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const time = Date.parse(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(time)) throw new UsageError(`${flag} takes a date (2026-12-01) or a time, got "${text}"`);
  return new Date(dateOnly && end === "end" ? time + 86_399_999 : time).toISOString();
}
