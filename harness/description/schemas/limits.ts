/**
 * limits.json, the report of `sxd limits`, as a JSON Schema declared once:
 * schema/limits.schema.json is written from it (`npm run schemas`), and test/limits.test.ts
 * checks a real run's report against that file.
 */
import Type from "typebox";
import { refTo } from "./kinds.ts";

const text = (description: string) => Type.String({ description });
const GROWTH = Type.Union(
  ["flat", "linear", "faster", "unclear"].map((growth) => Type.Literal(growth)),
  { description: "How the cost grows with the size (docs/limits.md)." },
);

const POINT = Type.Object(
  {
    size: Type.Number({ description: "The size: versions, challenges, bytes, clients." }),
    median: Type.Number({ description: "The median of the repeats, in the series' unit." }),
    spread: Type.Number({ description: "The interquartile range of the repeats (p75 - p25)." }),
    repeats: Type.Array(Type.Number(), { description: "Every repeat kept, in the order measured." }),
  },
  { additionalProperties: false },
);

const SERIES = Type.Object(
  {
    name: text("What is measured: GET s1, PUT, login."),
    unit: text("ms, ms per login, MB."),
    expected: Type.Optional(
      Type.Literal("linear", { description: "The operation handles every item: linear growth counts as flat." }),
    ),
    points: Type.Array(refTo("point", POINT)),
    exponent: Type.Optional(Type.Number({ description: "The slope of log(p25) against log(size)." })),
    ratio: Type.Optional(Type.Number({ description: "p25 at the largest size over p25 at the smallest." })),
    growth: Type.Optional(refTo("growth", GROWTH)),
    why: Type.Optional(text("The numbers that decided the class.")),
  },
  { additionalProperties: false },
);

const CASE = Type.Object(
  {
    id: Type.String({ pattern: "^LIM-[0-9]+$" }),
    measures: text("What the case measures, as the catalogue says."),
    size: Type.Object({ name: Type.String(), unit: Type.String() }, { additionalProperties: false }),
    sizes: Type.Array(Type.Number(), { description: "The sizes asked for." }),
    status: Type.Union([Type.Literal("measured"), Type.Literal("not run"), Type.Literal("finding")]),
    reason: Type.Optional(text("Why not run: the description key to state.")),
    growth: Type.Optional(refTo("growth", GROWTH)),
    limit: Type.Optional(
      Type.Object(
        { size: Type.Number(), said: text("The refusal: its status and message.") },
        { additionalProperties: false },
      ),
    ),
    lowered: Type.Array(Type.Object({ size: Type.Number(), reason: Type.String() }, { additionalProperties: false }), {
      description: "Sizes not measured, and why.",
    }),
    observed: Type.Optional(
      Type.Array(Type.Object({ size: Type.Number(), said: Type.String() }, { additionalProperties: false }), {
        description:
          "What the case saw at a size beside its costs, in words (LIM-4: whether a nonce issued before the unanswered challenges still gets in).",
      }),
    ),
    finding: Type.Optional(
      Type.Object(
        { message: Type.String(), exchange: Type.Optional(text("The exchange, as a transcript.")) },
        { additionalProperties: false },
      ),
    ),
    notes: Type.Optional(
      Type.Array(Type.String(), { description: "What the case could not check, or left on the server." }),
    ),
    series: Type.Array(refTo("series", SERIES)),
    memory: Type.Optional(refTo("series", SERIES)),
  },
  { additionalProperties: false },
);

const LIMITS = Type.Object(
  {
    tool: Type.Literal("sxd limits"),
    version: Type.String(),
    target: text("The base URL measured."),
    described: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            "The target description's keys the run read: its snapshots, digest and export sections and its extra headers, as schema/target.schema.json has them, with the digest password and secret-looking header values masked (•••).",
        },
      ),
    ),
    bundled: Type.Optional(
      Type.Object(
        {
          variant: Type.String({ description: "standard or alternative." }),
          faults: Type.Array(Type.String(), {
            description: "The faults it was started with (sxd serve --fault list).",
          }),
        },
        {
          additionalProperties: false,
          description:
            "Present where the run started the bundled reference (no URL given), whose ports change with every run.",
        },
      ),
    ),
    startedAt: text("When the run started (ISO 8601)."),
    elapsedMs: Type.Number(),
    repeats: Type.Number({ description: "Repeats kept at each size." }),
    deadlineSeconds: Type.Number(),
    memory: text("Whose memory was read, or why it was not observed."),
    cases: Type.Array(refTo("case", CASE)),
  },
  {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://sxd.example/schema/limits.schema.json",
    title: "sxd limits report",
    description:
      "What sxd limits measured: per LIM case, per series, the cost at each size (median, spread, repeats), the fitted exponent and the growth class.",
    additionalProperties: false,
    $defs: { growth: GROWTH, point: POINT, series: SERIES, case: CASE },
  },
);

export const LIMITS_SCHEMA = LIMITS as typeof LIMITS & { $id: string };
