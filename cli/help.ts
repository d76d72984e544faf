/**
 * Each command's `--help`, the same for `sxd help X` and `sxd X --help`: its usage and what
 * it does in words, then its options as the option table lists them. The option tables of
 * docs/ are made here too (`npm run docs:options`), so help and docs say the same.
 */
import { OFFERED_TASKS } from "../harness/client/tasks.ts";
import { RUN_SETTINGS, TARGET_COMMANDS } from "../harness/description/settings.ts";
import { REPORT_FILES as F } from "../harness/evidence/report-folder.ts";
import { COMMAND_NAMES, type CommandName, type OptionSpec, optionsOf, SHUTDOWN_GRACE_MS } from "./option-table.ts";

interface CommandText {
  usage: string;
  /** What the command does, before the options. */
  about: string;
  /** What follows the options: reports, exit codes. */
  after?: string;
}

const EXIT_CODES = `Exit codes: 0 passed; 1 not conformant; 2 usage error or unreachable target; 3 incomplete
(a MUST or stated MAY row could not be run, or nothing ran; --allow-incomplete makes the first 0).`;

const TEXT: Record<CommandName, CommandText> = {
  test: {
    usage: "Usage: sxd test [options]",
    about: `Runs the conformance suite. With no URL (flag, environment or --config) it starts the bundled
reference servers on free ports, runs against them and stops them. A flag beats its
environment variable, which beats the description's run section.`,
    after: `Reports go to the report directory: ${F.conformanceHtml}, ${F.conformanceJson}, ${F.junit} (one test
case per scenario and row; only what fails the run is a <failure>), ${F.summary} (the verdict and
the rows not passed, in Markdown, for a CI job summary), ${F.cucumberHtml}, ${F.messages}.

${EXIT_CODES}`,
  },
  "test-client": {
    usage: `Usage: sxd test-client --run "<command>" [options]
       sxd test-client --manual [options]
       sxd test-client --har FILE [--username U --password P] [options]`,
    about: `Grades a client of the interface by what it sends. sxd starts its own servers, then runs the
command through the shell once per task (and again where it stages a condition), with:
  SXD_TASK           the task: ${OFFERED_TASKS.join(", ")}
  SXD_URL            what the task is about: the protected resource (digest tasks), an entry
                     (update: set its title to SXD_TITLE; history: print the title of every
                     version, newest first, one per line), a contact list (export: export it
                     to the messaging server by its link; where the link fails, a client with
                     the fallback uploads the contacts by POST /user/<user>/contacts there)
  SXD_USERNAME, SXD_PASSWORD   the user to log in as
  SXD_BODY           what digest-post sends;  SXD_TITLE  what update sets
  SXD_BASE_URL, SXD_CONTACTS_URL, SXD_MESSAGING_URL   sxd's servers
The command exits 0 when done, 127 for a task it does not do (its rows are not run, never
failed), anything else when it failed.

--manual, for a client no command can drive (a phone app, a desktop program): sxd starts its
servers on 127.0.0.1, prints each task with its address and the user, and records what arrives
until you press Enter or Ctrl-C. --har FILE grades a recording made elsewhere (browser tools, a
proxy in front of the client); without --username and --password the rows that need the
secret, CDIG-2, CDIG-4 and CDIG-3 beyond Basic credentials, are not run. Either way the rows
sxd judges by staging a condition (CDIG-6, -7, -8, -10, CSNAP-4, CEXP-4) are not run: a
recording cannot show them, so the verdict is at best incomplete.

--config client.json states what the client does where the rows leave it a choice
(schema/client.schema.json): digest.checksRspauth (CDIG-8), digest.retriesStale (CDIG-6),
export.fallback (CEXP-4). true: the row is judged as claimed; false: it does not apply;
left out: observed where sxd can, else not run, naming the key.`,
    after: `Reports (${F.conformanceJson} with each task's requests and the client's output, ${F.conformanceHtml},
${F.junit}, ${F.summary}) go to the report directory.

${EXIT_CODES}`,
  },
  interop: {
    usage: "Usage: sxd interop FILE [options]",
    about: `Runs every client of the matrix FILE against every server of it, a cell per pair and task
(docs/interop.md). Servers are URLs already running, or a start command sxd runs with SXD_PORT
(and SXD_CONTACTS_PORT, SXD_MESSAGING_PORT where its description has an export section) and
SXD_WORK_DIR; clients are commands with the environment and exit codes of sxd test-client.
sxd stands between each pair as a recording proxy, so each failed cell says whose fault it is:
client, server, both, or neither (a gap in the spec or in sxd's rows).`,
    after: `Reports: ${F.interopJson}, ${F.junit} (a test case per cell), cells/<client>/<server>/<task>/ (the
exchange, the client's output), servers/<name>/ and clients/<name>/ (each one's own verdict).

Exit codes: 0 every cell that could run succeeded; 1 a cell failed; 2 usage error.`,
  },
  serve: {
    usage: "Usage: sxd serve [base] [contacts] [messaging] [options]",
    about: `Runs the reference servers (all three when none is named) and prints their URLs.
Everything is kept in memory: a restart starts empty. Stop with Ctrl-C, or SIGTERM,
which lets requests in flight finish (up to ${SHUTDOWN_GRACE_MS / 1000} s). The contacts and messaging
servers check export tokens with a shared key: when they run as separate processes,
give both the same SXD_TOKEN_KEY.`,
  },
  init: {
    usage: "Usage: sxd init [options]",
    about: `Writes a starter target description (JSON, with $comment notes and a $schema for editors) for
sxd test --config FILE. Without --base-url on a terminal, it asks; answer with Enter to take
the default in brackets.`,
  },
  rows: {
    usage: "Usage: sxd rows [--check]",
    about: `Prints the row matrix: each rule, its level and the scenarios that check it, the server's rows
and then the client's (sxd test-client).`,
  },
  report: {
    usage: "Usage: sxd report merge A.json|DIR|GLOB ... [--out FILE]",
    about: `Writes one HTML matrix of several runs' ${F.conformanceJson}, rows x runs: servers' (sxd test) and
clients' (sxd test-client), each run headed by its URL or command. Given the ${F.interopJson} of
shards of sxd interop instead, writes the whole matrix (${F.interopJson}, ${F.interopHtml}, ${F.junit},
${F.summary}, the cells' evidence) into the folder --out names (default: reports); a shard missing
is named, and nothing is written. Each argument is a report file, a run's report folder, a folder
of them, or a glob quoted so that sxd expands it.`,
  },
  fuzz: {
    usage: "Usage: sxd fuzz [--config FILE] [--seed N] [--budget N|Ns] [--replay FILE] [options]",
    about: `Sends many mutated requests to the target (the bundled reference when no URL is given): mutants
of credentials the server granted (DIG-6, DIG-12), every single mutation first, then
combinations drawn from the seed. Each trial answers a fresh challenge. A failure (mutated
credentials that prove something else and got in, malformed ones that got in, a 5xx, a
dropped connection, a reply that is not HTTP) is shrunk to the smallest request that still
fails the same way and written to the report directory (fuzz/), one file per row and kind,
with its exchange and a curl command. --replay FILE redoes the 401, recomputes the digest for
a fresh nonce, runs it three times and says whether it still fails, is fixed or is flaky.
The password is left out of the files unless --show-secrets.`,
    after: `Exit codes: 0 nothing found (replay: fixed), 1 failures found (replay: still fails or flaky),
2 usage error or an unreachable target.`,
  },
  limits: {
    usage:
      "Usage: sxd limits [--base-url URL | --config FILE] [--sizes F|LIM-n=A,B,..] [--fail-on linear|faster] [options]",
    about: `Measures how the target's costs grow with what it holds (the LIM cases of sxd rows, against
the bundled reference when no URL is given): each operation at each size, repeated, its median
and spread, and a class: flat, linear, faster, or unclear where the repeats' noise is as large as
the change (docs/limits.md says how). A size refused with 413, 507 or a stated limit ends its
series, naming the limit; a 5xx, a reset, a hang, or a server that no longer answers a plain GET
is a finding, shown first. Every resource made is deleted afterwards. The server's resident
memory is read after each size where its process is known (the bundled reference, --server-pid).
Writes limits.json, limits.html (a chart per case) and summary.md into the report directory.`,
    after: `Exit codes: 0 measured (whatever the classes), 1 a finding, or a case as --fail-on names,
2 usage error or an unreachable target.`,
  },
  history: {
    usage: `Usage: sxd history --store FILE|URL [--target TEXT] [--row ID] [--label L] [--since DATE] [--json | --html DIR]
       sxd history add DIR... --store FILE|URL [--label L]`,
    about: `Reads the runs kept in a store of results (sxd test, test-client, interop and limits record
theirs with --store): per target and row, the runs collapsed into stretches of one verdict, the
first run of the latest failure and the run that fixed it (with their label, date and evidence),
the rows intermittent (verdicts that differ between runs of one label, or within one --repeat
group) with the share of runs that failed them, each interop cell the same way, and each limits
case's cost at its largest size by label, flagged where it rose past the earlier runs' spread.
add DIR... records report folders written earlier (CI artifacts) as --store would have; a run
recorded twice is kept once. The label is --label, else the CI's commit (GITHUB_SHA, CI_COMMIT_SHA).`,
    after: `Exit codes: 0 done; 2 usage error, or a store that cannot be used (not a database, written by a
newer sxd, refused credentials, nothing listening).`,
  },
  docs: {
    usage: `Usage: sxd docs [--out DIR] [--results ${F.conformanceJson} ...] [--limits ${F.limitsJson}]`,
    about: `Writes the interface's documentation as a static site (open DIR/index.html from disk, or
publish the folder as it is): every rule with its level, the server's rules and then the
client's, the scenarios that check each in plain words, and a real exchange. To record them it
runs the suite against the bundled reference (server rules) and the example client
(examples/clients/node) against sxd's servers (client rules). --results adds a column per run
from its ${F.conformanceJson}, linked to the ${F.conformanceHtml} beside it: a server's (sxd test)
shows on the server rules, a client's (sxd test-client) on the client rules. A page of its own
shows the LIM cases (sxd limits) with what was measured of the bundled reference as the site was
built, or of the target of the ${F.limitsJson} given.`,
  },
};

export function commandHelp(command: CommandName): string {
  const { usage, about, after } = TEXT[command];
  const options = optionsOf(command);
  const withEnv = options.some((option) => option.env !== undefined)
    ? " (each also settable by the environment variable in brackets)"
    : "";
  return `${usage}\n\n${about}\n\nOptions${withEnv}:\n${options.map(helpLine).join("\n")}\n${after ? `\n${after}\n` : ""}`;
}

function flagOf(option: OptionSpec): string {
  return `--${option.name}${option.type === "string" ? ` ${option.arg ?? "VALUE"}` : ""}`;
}

function defaultText(option: OptionSpec): string | undefined {
  if (option.defaultText !== undefined) return option.defaultText;
  return option.default === "" ? undefined : option.default;
}

function helpLine(option: OptionSpec): string {
  const byDefault = defaultText(option);
  const text = `${option.help}${byDefault === undefined ? "" : ` (default: ${byDefault})`}`;
  return `  ${flagOf(option).padEnd(26)} ${text}${option.env ? ` [${option.env}]` : ""}`;
}

/**
 * A command's options as a Markdown table, for docs/; for a command that sends to a target
 * (TARGET_COMMANDS), which reads a target description's settings too, each one's key there (`run.timeout`).
 */
export function optionsMarkdown(command: CommandName): string {
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const code = (text: string) => `\`${cell(text)}\``;
  const options = optionsOf(command);
  const keyed = (TARGET_COMMANDS as readonly string[]).includes(command);
  const keyOf = (option: OptionSpec) => {
    if (option.key === undefined) return "";
    return code(RUN_OPTION_NAMES.has(option.name) ? `run.${option.key}` : option.key);
  };
  const lines = options.map((option) => {
    const byDefault = defaultText(option);
    const key = keyed ? ` ${keyOf(option)} |` : "";
    return `| ${code(flagOf(option))} | ${option.env ? code(option.env) : ""} |${key} ${cell(option.help)} | ${byDefault === undefined ? "" : cell(byDefault)} |`;
  });
  const head = keyed
    ? ["| option | environment | description key | meaning | default |", "|---|---|---|---|---|"]
    : ["| option | environment | meaning | default |", "|---|---|---|---|"];
  return [...head, ...lines].join("\n");
}

/** The flags whose description key is in the run section. */
const RUN_OPTION_NAMES: ReadonlySet<string> = new Set(RUN_SETTINGS.map((setting) => setting.name));

const TABLE_MARKS = /<!-- options: ([a-z-]+) -->\n[\s\S]*?<!-- \/options -->/g;

/** A docs page with each marked option table made anew from the option table. */
export function withOptionTables(page: string): string {
  return page.replace(TABLE_MARKS, (marked, command: string) => {
    const known = COMMAND_NAMES.find((name) => name === command);
    if (known === undefined) throw new Error(`no command ${command} for the option table in: ${marked.slice(0, 40)}`);
    return `<!-- options: ${known} -->\n${optionsMarkdown(known)}\n<!-- /options -->`;
  });
}
