/**
 * history.json, what `sxd history --json` prints and `--html DIR` writes beside the page, as a
 * JSON Schema declared once: schema/history.schema.json is written from it (`npm run schemas`),
 * and test/history.test.ts checks a real history against that file. The document's type is
 * harness/store/history.ts's.
 */
import Type from "typebox";
import { refTo } from "./kinds.ts";

const text = (description: string) => Type.String({ description });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

const RUN = Type.Object(
  {
    run: text("The run's identity: a hash of the document it wrote (conformance.json, interop.json, limits.json)."),
    label: nullable(Type.String(), "What was tested (--label, else the CI's commit); null where nothing said."),
    date: text("When the run started (ISO 8601, UTC)."),
    folder: nullable(Type.String(), "The report folder its evidence was written to."),
    jobUrl: nullable(Type.String(), "The CI job that made it."),
  },
  { additionalProperties: false },
);

const STRETCH = Type.Object(
  {
    verdict: text("The verdict (of a row) or result (of an interop cell) the runs of the stretch gave."),
    runs: Type.Integer({ minimum: 1 }),
    first: refTo("run", RUN),
    last: refTo("run", RUN),
    note: nullable(Type.String(), "Why, as the stretch's first run said: a row's reason, a cell's blame and why."),
  },
  { additionalProperties: false },
);

const ROW = Type.Object(
  {
    id: text("A row's ID, or an interop cell's: client/server/task."),
    stretches: Type.Array(refTo("stretch", STRETCH), {
      description: "The runs, oldest first, collapsed into stretches of one verdict.",
    }),
    firstFailed: nullable(
      refTo("run", RUN),
      "The first run of the latest stretch of failure; null where it never failed.",
    ),
    fixedBy: nullable(
      refTo("run", RUN),
      "The first run after that stretch in which the row held again; null where it never failed or fails still.",
    ),
    intermittent: Type.Boolean({
      description:
        "Broken in some and held in other runs of one label, or within one --repeat group. A change between labels that stayed is not.",
    }),
    intermittentLabels: Type.Array(Type.String(), { description: "The labels within which the verdicts differed." }),
    failedShare: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "Of the runs (each repeat of a group) that judged the row, the share that broke it.",
    }),
  },
  { additionalProperties: false },
);

const LABEL_COST = Type.Object(
  {
    label: text("The label, or `run <id>` for a run without one."),
    runs: Type.Integer({ minimum: 1 }),
    last: refTo("run", RUN),
    lowerQuartile: Type.Number({ description: "The median of its runs' lower quartiles at the size." }),
    upperQuartile: Type.Number({ description: "The median of its runs' upper quartiles (p25 + spread)." }),
    memory: nullable(Type.Number(), "The server's memory at the size, where it was read."),
    risen: Type.Boolean({ description: "Its lower quartile lies above the upper quartile of every earlier run." }),
  },
  { additionalProperties: false },
);

const TREND = Type.Object(
  {
    caseId: Type.String({ pattern: "^LIM-[0-9]+$" }),
    series: text("What is measured: GET s1, PUT, login."),
    unit: text("ms, ms per login, MB."),
    size: Type.Number({ description: "The largest size of the latest run: the runs measured at it are compared." }),
    labels: Type.Array(refTo("labelCost", LABEL_COST)),
    risen: Type.Boolean(),
  },
  { additionalProperties: false },
);

const TARGET = Type.Object(
  {
    target: text("What the runs judged: a server's base URL, a client's command, an interop matrix's servers."),
    kinds: Type.Array(
      Type.Union([Type.Literal("test"), Type.Literal("test-client"), Type.Literal("interop"), Type.Literal("limits")]),
      { description: "The commands whose runs these are." },
    ),
    runs: Type.Integer({ minimum: 1 }),
    first: refTo("run", RUN),
    last: refTo("run", RUN),
    rows: Type.Array(refTo("row", ROW)),
    cells: Type.Array(refTo("row", ROW), { description: "The interop cells, each as a row." }),
    limits: Type.Array(refTo("trend", TREND)),
  },
  { additionalProperties: false },
);

const HISTORY = Type.Object(
  {
    kind: Type.Literal("sxd-history"),
    version: Type.Literal(1),
    store: text("The store read (a PostgreSQL URL without its password)."),
    filter: Type.Object(
      {
        target: Type.Optional(Type.String()),
        label: Type.Optional(Type.String()),
        since: Type.Optional(Type.String()),
        until: Type.Optional(Type.String()),
        rows: Type.Optional(Type.Array(Type.String())),
      },
      { additionalProperties: false },
    ),
    runs: Type.Integer({ minimum: 0, description: "The runs the filter took." }),
    targets: Type.Array(refTo("target", TARGET)),
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://sxd.example/schema/history.schema.json",
    title: "sxd history",
    description:
      "The runs of a store of results, per target: each row's and interop cell's verdicts in stretches, the first run of its latest failure and the run that fixed it, whether it is intermittent and the share of runs that broke it; each limits case's cost at its largest size by label.",
    additionalProperties: false,
    $defs: { run: RUN, stretch: STRETCH, row: ROW, labelCost: LABEL_COST, trend: TREND, target: TARGET },
  },
);

export const HISTORY_SCHEMA = HISTORY as typeof HISTORY & { $id: string };
