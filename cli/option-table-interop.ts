/** Part of the option table (cli/option-table.ts): `sxd interop`, in help's order (shared options are in the others). */
import type { OptionSpec } from "./option-spec.ts";

export const INTEROP_OPTIONS = [
  {
    name: "servers",
    commands: ["interop"],
    type: "string",
    arg: "LIST",
    defaultText: "every server of the matrix file",
    help: "the servers to run, comma-separated names of the matrix file",
  },
  {
    name: "clients",
    commands: ["interop"],
    type: "string",
    arg: "LIST",
    defaultText: "every client of the matrix file",
    help: "the clients to run, comma-separated names of the matrix file",
  },
  {
    name: "shard",
    commands: ["interop"],
    type: "string",
    arg: "I/N",
    default: "1/1",
    help: "run the I-th of N shares of the cells (sorted by client, server, task); sxd report merge joins them",
  },
  {
    name: "parallel",
    commands: ["interop"],
    type: "string",
    kind: "count",
    most: 64,
    arg: "N",
    default: "4",
    help: "cells that run at once, and servers up at once (1: one cell at a time); a server's cells that share its state run one after another",
  },
] as const satisfies readonly OptionSpec[];
