/** The flags of `sxd test`: each with its environment variable and the line `--help` prints. */
/** Long enough for the whole suite against a slow server; a run that needs more says so. */
export const DEFAULT_DEADLINE_SECONDS = 600;

export const TEST_OPTIONS = {
  "base-url": {
    type: "string",
    env: "SXD_BASE_URL",
    help: "URL of the server with the snapshot and protected resources",
  },
  "contacts-url": { type: "string", env: "SXD_CONTACTS_URL", help: "URL of the contacts server (export rows)" },
  "messaging-url": { type: "string", env: "SXD_MESSAGING_URL", help: "URL of the messaging server (export rows)" },
  peer: {
    type: "string",
    env: "SXD_PEER",
    help: "contacts or messaging: sxd plays that export server itself, for a team with only the other (see README)",
  },
  "peer-port": {
    type: "string",
    env: "SXD_PEER_PORT",
    help: "with --peer: the port of sxd's server, which the team's server is configured to reach",
  },
  "peer-host": {
    type: "string",
    env: "SXD_PEER_HOST",
    help: "with --peer: the address sxd's server listens on, e.g. 0.0.0.0 for a team server in a container (default: 127.0.0.1); on 0.0.0.0 or :: its URL names 127.0.0.1",
  },
  config: { type: "string", env: "SXD_CONFIG", help: "target description, a JSON file (see README)" },
  tags: { type: "string", env: "SXD_TAGS", help: "cucumber tag expression, e.g. '@SNAP-3 or @digest and @must'" },
  strict: { type: "boolean", env: "SXD_STRICT", help: "SHOULD rows fail the run too, not only warn" },
  "allow-incomplete": {
    type: "boolean",
    env: "SXD_ALLOW_INCOMPLETE",
    help: "exit 0, not 3, when a MUST row could not be run (the verdict still says incomplete)",
  },
  "report-dir": { type: "string", env: "SXD_REPORT_DIR", help: "where reports are written (default: reports)" },
  timeout: { type: "string", env: "SXD_TIMEOUT", help: "milliseconds to wait for each HTTP reply (default: 10000)" },
  parallel: {
    type: "string",
    env: "SXD_PARALLEL",
    help: "worker processes, each running one scenario at a time (default: one process, taking more scenarios at once the longer the target takes to answer)",
  },
  "max-body": {
    type: "string",
    env: "SXD_MAX_BODY",
    help: "bytes of a reply body sxd reads at most; a larger reply fails (default: 8388608, 8 MiB)",
  },
  deadline: {
    type: "string",
    env: "SXD_DEADLINE",
    help: `seconds after which no scenario starts; the rest are not run (default: ${DEFAULT_DEADLINE_SECONDS})`,
  },
  rate: {
    type: "string",
    env: "SXD_RATE",
    help: "at most this many requests per second, across all workers (default: no cap)",
  },
  "expect-fail": {
    type: "string",
    env: "SXD_EXPECT_FAIL",
    help: 'JSON file of known failing rows: { "SNAP-11": "reason" }',
  },
  "docs-url": {
    type: "string",
    env: "SXD_DOCS_URL",
    help: "where the site of sxd docs is published: reports link each row to its section",
  },
  har: { type: "string", env: "SXD_HAR", help: "also write the whole run's HTTP traffic to this HAR file" },
  wait: {
    type: "string",
    env: "SXD_WAIT",
    help: "seconds to keep retrying until the target answers, for a server still starting (default: 0)",
  },
  header: {
    type: "string",
    multiple: true,
    help: "'Name: value', an extra header on every request (repeatable); secret-looking values are masked in reports",
  },
  ca: { type: "string", env: "SXD_CA", help: "PEM file of the certificate authority of an HTTPS target" },
  insecure: { type: "boolean", env: "SXD_INSECURE", help: "do not check TLS certificates (a warning says so)" },
  verbose: { type: "boolean", env: "SXD_VERBOSE", help: "also print cucumber's own failure dump" },
  "reference-fault": {
    type: "string",
    multiple: true,
    help: "(testing sxd) start the bundled reference with this fault",
  },
  "reference-variant": { type: "string", help: "(testing sxd) start the bundled reference as this variant" },
  help: { type: "boolean", short: "h", help: "show this help" },
} as const;
