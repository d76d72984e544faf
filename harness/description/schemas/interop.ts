/**
 * The matrix file of `sxd interop` as a JSON Schema, declared once: schema/interop.schema.json
 * is written from it (`npm run schemas`), and sxd checks every matrix file against that file
 * (harness/interop/matrix-file.ts, which adds the rules between keys: a server is running or
 * started, not both). A name is a folder of the reports, so it is spelt as one.
 */
import Type from "typebox";
import { KINDS, known, optional, ref, refTo } from "./kinds.ts";

const START_WAIT = Type.Number({
  exclusiveMinimum: 0,
  maximum: 3600,
  title: "a number of seconds above 0, at most 3600",
});

const SERVER = known({
  url: optional("url", "A running server: the URL of its snapshot and protected resources."),
  contactsUrl: optional("url", "A running server: its contacts server."),
  messagingUrl: optional("url", "A running server: its messaging server."),
  start: optional(
    "text",
    "A server sxd starts: a shell command run in this file's folder with SXD_PORT (and SXD_CONTACTS_PORT, SXD_MESSAGING_PORT where its description has an export section) and SXD_WORK_DIR.",
  ),
  wait: Type.Optional(
    refTo("startWait", START_WAIT, "A started server: seconds it may take to answer HTTP. Default 60."),
  ),
  config: optional("text", "Its target description, a path from this file's folder (required)."),
  conformance: optional("text", "A conformance.json taken as its own verdict instead of running sxd test."),
});

const CLIENT = known({
  run: optional("text", "Its command, run through the shell in this file's folder (required)."),
  config: optional("text", "Its client description, a path from this file's folder."),
  conformance: optional("text", "A conformance.json taken as its own verdict instead of running sxd test-client."),
  timeout: optional(
    "count",
    "Milliseconds a run of a task may take on a quiet machine, for this client (else --task-timeout).",
  ),
});

/** Names of entries, each a folder of the reports. */
function named(entry: object, description: string) {
  return {
    type: "object",
    description,
    title: 'an object of names (letters, digits, ".", "_" and "-", each naming a folder) to entries',
    minProperties: 1,
    propertyNames: { pattern: "^([A-Za-z0-9][A-Za-z0-9._-]*|\\$comment)$" },
    properties: { $comment: ref("comment") },
    additionalProperties: entry,
  };
}

const MATRIX = Type.Object(
  {
    $schema: optional("text", "This schema, for editors."),
    $comment: optional("comment"),
    servers: Type.Unsafe<Record<string, unknown>>(named(refTo("server", SERVER), "The servers, by name.")),
    clients: Type.Unsafe<Record<string, unknown>>(named(refTo("client", CLIENT), "The clients, by name.")),
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://sxd.example/schema/interop.schema.json",
    title: "sxd interop matrix file",
    description:
      "The servers (running at URLs, or started by a command) and the clients (a command each) that sxd interop runs against each other, each with its description.",
    additionalProperties: false,
    $defs: {
      text: KINDS.text,
      comment: KINDS.comment,
      url: KINDS.url,
      count: KINDS.count,
      startWait: START_WAIT,
      server: SERVER,
      client: CLIENT,
    },
  },
);

/** The schema, with its address. */
export const INTEROP_SCHEMA = MATRIX as typeof MATRIX & { $id: string };
