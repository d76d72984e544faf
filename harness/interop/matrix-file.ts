/**
 * The matrix file of `sxd interop`: the servers (URLs already running, or a command that starts
 * one) and the clients (a command each), each with its description. Paths in it are read from
 * the file's own folder. Every mistake is one line naming the key; nothing is started here.
 *
 *   { "servers": { "ours": { "url": "http://127.0.0.1:8080", "config": "target.json" } },
 *     "clients": { "curl": { "run": "./clients/curl.sh" } } }
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseJsonText } from "../../lib/json-text.ts";
import { withoutTrailingSlashes } from "../../lib/uri.ts";
import { type ClientDescription, parseClientDescription } from "../client/description.ts";
import { checkDocument } from "../description/schema-check.ts";
import type { TargetDescription } from "../description/target.ts";
import { parseDescription } from "../description/target-check.ts";
import { fileProblem, UsageError } from "../errors.ts";
import { INTEROP_TASKS, type InteropTask } from "../evidence/interop-document.ts";

/** Seconds a started server may take to answer HTTP, where the file does not say. */
export const DEFAULT_WAIT_SECONDS = 60;

/** Where a server is: given URLs, or a command sxd starts on ports it chose. */
export type ServerPlace =
  | { kind: "running"; base: string; contacts?: string; messaging?: string }
  | { kind: "started"; start: string; waitSeconds: number };

export interface MatrixServer {
  name: string;
  place: ServerPlace;
  /** The description as its file says it, without URLs (those come from where the server is). */
  description: Partial<TargetDescription>;
  /** A conformance.json taken as its own verdict instead of running `sxd test`. */
  conformance?: string;
}

export interface MatrixClient {
  name: string;
  run: string;
  description: ClientDescription;
  conformance?: string;
  /** Milliseconds a run of a task may take on a quiet machine, for this client (else --task-timeout). */
  timeoutMs?: number;
}

export interface MatrixFile {
  /** The folder the file is in: commands run there. */
  folder: string;
  servers: MatrixServer[];
  clients: MatrixClient[];
}

export function readMatrixFile(path: string): MatrixFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the matrix file ${path}: ${fileProblem(error)}`);
  }
  const json = parseJsonText(text);
  if (!json.ok) throw new UsageError(`${path}${json.place}: not valid JSON (${json.reason})`);
  return parseMatrix(json.value, path);
}

/**
 * The matrix from its parsed JSON; `path` names the file in messages and gives the folder. Its
 * keys and values are checked against schema/interop.schema.json; the rules between keys here.
 */
export function parseMatrix(value: unknown, path: string): MatrixFile {
  const folder = dirname(resolve(path));
  const problem = (message: string) => new UsageError(`${path}: ${message}`);
  const checked = checkDocument<{ servers: Entries; clients: Entries }>("interop", value, path);
  if (!checked.ok) throw new UsageError(checked.error);
  const section = (key: "servers" | "clients") => {
    const entries = Object.entries(checked.value[key]);
    if (entries.length === 0) throw problem(`"${key}" must be an object naming at least one ${key.slice(0, -1)}`);
    return entries;
  };
  const context: Context = { folder, problem };
  return {
    folder,
    servers: section("servers").map(([name, entry]) => serverOf(name, entry, context)),
    clients: section("clients").map(([name, entry]) => clientOf(name, entry, context)),
  };
}

/** A section's entries by name, each checked against the schema: texts, URLs and numbers of their kinds. */
type Entries = Record<string, Record<string, string | number | undefined>>;

interface Context {
  folder: string;
  problem: (message: string) => UsageError;
}

function fileOf(given: string | number | undefined, context: Context): string | undefined {
  return given === undefined ? undefined : resolve(context.folder, String(given));
}

function serverOf(name: string, fields: Entries[string], context: Context): MatrixServer {
  const config = fileOf(fields.config, context);
  if (config === undefined) throw context.problem(`server "${name}" needs "config", its target description`);
  const description = readTarget(config);
  const { start, url } = fields as { start?: string; url?: string };
  if ((start === undefined) === (url === undefined))
    throw context.problem(`server "${name}": give either "url" (running) or "start" (a command sxd runs)`);
  const conformance = fileOf(fields.conformance, context);
  const common = { name, description, ...(conformance ? { conformance } : {}) };
  if (start !== undefined) {
    const urls = ["contactsUrl", "messagingUrl"].find((key) => fields[key] !== undefined);
    if (urls) throw context.problem(`server "${name}": ${urls} is for a running server; a started one gets ports`);
    const waitSeconds = Number(fields.wait ?? DEFAULT_WAIT_SECONDS);
    return { ...common, place: { kind: "started", start, waitSeconds } };
  }
  if (fields.wait !== undefined) throw context.problem(`server "${name}": wait is for a started server`);
  const urlOf = (key: string) => (fields[key] === undefined ? undefined : withoutTrailingSlashes(String(fields[key])));
  const contacts = urlOf("contactsUrl");
  const messaging = urlOf("messagingUrl");
  return {
    ...common,
    place: {
      kind: "running",
      base: withoutTrailingSlashes(url as string),
      ...(contacts ? { contacts } : {}),
      ...(messaging ? { messaging } : {}),
    },
  };
}

function clientOf(name: string, fields: Entries[string], context: Context): MatrixClient {
  const { run, timeout } = fields as { run?: string; timeout?: number };
  if (run === undefined) throw context.problem(`client "${name}" needs "run", its command`);
  const config = fileOf(fields.config, context);
  const conformance = fileOf(fields.conformance, context);
  return {
    name,
    run,
    description: config ? readClientDescription(config) : {},
    ...(conformance ? { conformance } : {}),
    ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
  };
}

function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the ${what} ${path}: ${fileProblem(error)}`);
  }
}

function readTarget(path: string): Partial<TargetDescription> {
  const parsed = parseDescription(readFile(path, "target description"), path);
  if (!parsed.ok) throw new UsageError(parsed.error);
  return parsed.value;
}

function readClientDescription(path: string): ClientDescription {
  const parsed = parseClientDescription(readFile(path, "client description"), path);
  if (!parsed.ok) throw new UsageError(parsed.error);
  return parsed.value;
}

/** The names a --servers or --clients list picks, in the file's order; an unknown name is a usage error. */
export function picked<T extends { name: string }>(all: T[], list: string | undefined, option: string): T[] {
  if (list === undefined) return all;
  const names = list.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !all.some((item) => item.name === name));
  if (unknown !== undefined)
    throw new UsageError(`${option}: no "${unknown}" in the matrix file (known: ${all.map((i) => i.name).join(", ")})`);
  return all.filter((item) => names.includes(item.name));
}

/** A --tasks list, in the matrix's order of tasks. */
export function pickedTasks(list: string | undefined): InteropTask[] {
  if (list === undefined) return [...INTEROP_TASKS];
  const names = list.split(",").map((name) => name.trim());
  const unknown = names.find((name) => !(INTEROP_TASKS as readonly string[]).includes(name));
  if (unknown !== undefined)
    throw new UsageError(`--tasks: unknown task "${unknown}" (known: ${INTEROP_TASKS.join(", ")})`);
  return INTEROP_TASKS.filter((task) => names.includes(task));
}
