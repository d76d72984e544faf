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
import { isHttpUrl, withoutTrailingSlashes } from "../../lib/uri.ts";
import { type ClientDescription, parseClientDescription } from "../client/description.ts";
import { fileProblem, UsageError } from "../errors.ts";
import { isObject, type Json, type TargetDescription } from "../target.ts";
import { parseDescription } from "../target-check.ts";
import { INTEROP_TASKS, type InteropTask } from "./document.ts";

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

/** The matrix from its parsed JSON; `path` names the file in messages and gives the folder. */
export function parseMatrix(value: unknown, path: string): MatrixFile {
  const folder = dirname(resolve(path));
  const problem = (message: string) => new UsageError(`${path}: ${message}`);
  if (!isObject(value)) throw problem("expected a JSON object with servers and clients");
  const unknown = Object.keys(value).find((key) => !["servers", "clients", "$comment", "$schema"].includes(key));
  if (unknown !== undefined) throw problem(`unknown key "${unknown}" (known: servers, clients)`);
  const section = (key: "servers" | "clients") => {
    const entries = value[key];
    if (!isObject(entries) || Object.keys(entries).length === 0)
      throw problem(`"${key}" must be an object naming at least one ${key.slice(0, -1)}`);
    return Object.entries(entries).filter(([name]) => name !== "$comment");
  };
  const context: Context = { folder, problem };
  return {
    folder,
    servers: section("servers").map(([name, entry]) => serverOf(name, entry, context)),
    clients: section("clients").map(([name, entry]) => clientOf(name, entry, context)),
  };
}

interface Context {
  folder: string;
  problem: (message: string) => UsageError;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function entryOf(kind: string, name: string, entry: Json, known: string[], context: Context) {
  if (!NAME.test(name))
    throw context.problem(`${kind} "${name}": a name is letters, digits, ".", "_" and "-" (it names a folder)`);
  if (!isObject(entry)) throw context.problem(`${kind} "${name}" must be an object`);
  const extra = Object.keys(entry).find((key) => !known.includes(key) && key !== "$comment");
  if (extra !== undefined)
    throw context.problem(`${kind} "${name}": unknown key "${extra}" (known: ${known.join(", ")})`);
  const text = (key: string): string | undefined => {
    const found = entry[key];
    if (found === undefined) return undefined;
    if (typeof found !== "string" || found === "") throw context.problem(`${kind} "${name}": ${key} must be a text`);
    return found;
  };
  const file = (key: string) => {
    const given = text(key);
    return given === undefined ? undefined : resolve(context.folder, given);
  };
  return { entry, text, file };
}

function serverOf(name: string, entry: Json, context: Context): MatrixServer {
  const known = ["url", "contactsUrl", "messagingUrl", "start", "wait", "config", "conformance"];
  const { entry: fields, text, file } = entryOf("server", name, entry, known, context);
  const config = file("config");
  if (config === undefined) throw context.problem(`server "${name}" needs "config", its target description`);
  const description = readTarget(config);
  const start = text("start");
  const url = text("url");
  if ((start === undefined) === (url === undefined))
    throw context.problem(`server "${name}": give either "url" (running) or "start" (a command sxd runs)`);
  const conformance = file("conformance");
  const common = { name, description, ...(conformance ? { conformance } : {}) };
  if (start !== undefined) {
    const urls = ["contactsUrl", "messagingUrl"].find((key) => fields[key] !== undefined);
    if (urls) throw context.problem(`server "${name}": ${urls} is for a running server; a started one gets ports`);
    const wait = fields.wait ?? DEFAULT_WAIT_SECONDS;
    if (typeof wait !== "number" || !(wait > 0) || wait > 3600)
      throw context.problem(`server "${name}": wait must be a number of seconds, above 0 and at most 3600`);
    return { ...common, place: { kind: "started", start, waitSeconds: wait } };
  }
  if (fields.wait !== undefined) throw context.problem(`server "${name}": wait is for a started server`);
  const urlOf = (key: string) => {
    const given = text(key);
    if (given !== undefined && !isHttpUrl(given))
      throw context.problem(`server "${name}": ${key} must be an http(s) URL`);
    return given === undefined ? undefined : withoutTrailingSlashes(given);
  };
  const base = urlOf("url") as string;
  const contacts = urlOf("contactsUrl");
  const messaging = urlOf("messagingUrl");
  return {
    ...common,
    place: {
      kind: "running",
      base,
      ...(contacts ? { contacts } : {}),
      ...(messaging ? { messaging } : {}),
    },
  };
}

function clientOf(name: string, entry: Json, context: Context): MatrixClient {
  const known = ["run", "config", "conformance", "timeout"];
  const { entry: fields, text, file } = entryOf("client", name, entry, known, context);
  const run = text("run");
  if (run === undefined) throw context.problem(`client "${name}" needs "run", its command`);
  const config = file("config");
  const conformance = file("conformance");
  const timeout = fields.timeout;
  if (timeout !== undefined && (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1))
    throw context.problem(`client "${name}": timeout must be a whole number of milliseconds, above 0`);
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
