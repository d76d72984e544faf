/**
 * The layout is the architecture: each part imports only what lies below it, through one door
 * where it has one. Read from the real import graph of every source file, like the
 * traceability check, so a wrong import fails `npm test` with its file and line.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { test } from "node:test";
import { REPORT_FILES } from "../harness/evidence/report-folder.ts";
import { loadAllRows } from "../harness/judging/catalogue.ts";
import { BEHAVIOURS, CLIENT_STEP_FILES, SERVER_STEP_FILES } from "../harness/package.ts";
import { SOURCE_ROOT } from "./support/source-root.ts";

const ROOT = SOURCE_ROOT;
const PARTS = ["bin", "cli", "harness", "steps/support", "steps", "reference", "lib"] as const;
type Part = (typeof PARTS)[number];

/** What each part may import besides itself; `reference/index.ts` is the reference's only door. */
const ALLOWED: Record<Part, readonly Part[]> = {
  bin: ["cli"],
  cli: ["harness", "reference", "lib"],
  harness: ["lib"],
  steps: ["steps/support", "harness", "lib"],
  "steps/support": ["harness", "lib"],
  reference: ["lib"],
  lib: [],
};
const REFERENCE_DOOR = "reference/index.ts";
/** The one file that names cucumber's private modules; its test fails on any other cucumber. */
const CUCUMBER_PRIVATE_DOOR = "harness/run/cucumber-private.ts";
const MAX_LINES = 300;

/**
 * harness/'s rooms, a stage a folder, by floor, lowest first: a room imports only the rooms of
 * lower floors (two rooms of one floor never import each other), and the ground, the few files
 * at harness/'s top, imports no room. limits/ (the `sxd limits` engine) stands beside report/
 * and docs/: it measures through wire/ and keeps its evidence; the run may show what it found.
 * store/ stands above all: the shell opens it, and no room can import it.
 */
const FLOORS: ReadonlyArray<readonly string[]> = [
  ["judging"],
  ["description"],
  ["evidence", "wire"],
  ["report", "docs", "fuzz", "limits"],
  ["run"],
  ["client"],
  ["interop"],
  ["store"],
];
const ROOMS = FLOORS.flat();
const GROUND = ["harness/errors.ts", "harness/io.ts", "harness/package.ts"];

/** The behaviours' folders of steps/ must not lean on each other: what two share goes below both, in steps/support/. */
const SIBLINGS: ReadonlyArray<readonly [string, string]> = BEHAVIOURS.flatMap((a, i) =>
  BEHAVIOURS.slice(i + 1).map((b) => [`steps/${a}`, `steps/${b}`] as const),
);

/** A row of the catalogue, as code names it. */
const ROW_ID = /\b(?:C?DIG|C?EXP|C?SNAP)-\d+\b/;

/**
 * Tests reach past the reference's door only where the door cannot give what they check, each
 * with the reason.
 */
const TESTS_PAST_THE_DOOR: Record<string, { modules: readonly string[]; why: string }> = {
  "test/reference-sockets.test.ts": {
    modules: ["reference/http/serve.ts", "reference/snapshots/routes.ts"],
    why: "its socket cases read one server's log and connection count, which only listen() gives",
  },
  "test/reference-early-reply.test.ts": {
    modules: ["reference/context.ts", "reference/http/serve.ts", "reference/snapshots/routes.ts"],
    why: "it sets the lingering close's bounds of one server, which only listen() takes",
  },
};

interface Import {
  from: string;
  to: string;
  line: number;
}

function filesUnder(roots: readonly string[]): string[] {
  return roots
    .flatMap((root) => readdirSync(join(ROOT, root), { recursive: true }).map((f) => `${root}/${String(f)}`))
    .filter((f) => /\.(ts|js|mjs)$/.test(f))
    .sort();
}

const TOP_PARTS = PARTS.filter((p) => !p.includes("/"));

function sourceFiles(): string[] {
  return filesUnder(TOP_PARTS).filter((f) => !f.endsWith(".test.ts"));
}

/** The tests beside the code they test, and everything under test/ (its tests and their support). */
function testFiles(): string[] {
  return [...filesUnder(TOP_PARTS).filter((f) => f.endsWith(".test.ts")), ...filesUnder(["test"])];
}

function partOf(file: string): Part | undefined {
  return PARTS.find((p) => file === p || file.startsWith(`${p}/`));
}

function importsOf(file: string): Import[] {
  const found: Import[] = [];
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  lines.forEach((text, index) => {
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.\.?\/[^"']+)["']/g)) {
      const to = normalize(join(dirname(file), match[1] ?? ""));
      found.push({ from: file, to, line: index + 1 });
    }
  });
  return found;
}

const files = sourceFiles();
const imports = files.flatMap(importsOf);
const testImports = testFiles().flatMap(importsOf);

test("every import points down the layers, and into the reference only through its door", () => {
  const wrong: string[] = [];
  for (const { from, to, line } of imports) {
    const source = partOf(from);
    const target = partOf(to);
    if (!source || !target || source === target) continue;
    const where = `${from}:${line} imports ${to}`;
    if (!ALLOWED[source].includes(target))
      wrong.push(`${where}: ${source}/ may import only ${ALLOWED[source].join(", ") || "nothing"}`);
    else if (target === "reference" && to !== REFERENCE_DOOR) wrong.push(`${where}: use ${REFERENCE_DOOR}`);
  }
  assert.deepEqual(wrong, []);
});

test("a test beside its code imports what its part may, and the shared support in test/", () => {
  const wrong: string[] = [];
  for (const { from, to, line } of testImports) {
    const source = partOf(from);
    const target = partOf(to);
    if (!source || source === target || to.startsWith("test/")) continue;
    if (!target || !ALLOWED[source].includes(target))
      wrong.push(
        `${from}:${line} imports ${to}: ${source}/ may import only ${ALLOWED[source].join(", ") || "nothing"}`,
      );
  }
  assert.deepEqual(wrong, []);
});

test("the behaviours' folders of steps/ do not import each other", () => {
  const inside = (file: string, folder: string) => file.startsWith(`${folder}/`);
  const wrong = [...imports, ...testImports]
    .filter(({ from, to }) =>
      SIBLINGS.some(([a, b]) => (inside(from, a) && inside(to, b)) || (inside(from, b) && inside(to, a))),
    )
    .map(({ from, to, line }) => `${from}:${line} imports ${to}: what both need goes below both (steps/support/)`);
  assert.deepEqual(wrong, []);
});

/** A file's room of harness/, "ground" for a file at its top; undefined outside harness/. */
function roomOf(file: string): string | undefined {
  const [top, room, ...rest] = file.split("/");
  if (top !== "harness") return undefined;
  return rest.length === 0 ? "ground" : room;
}

/** The ground is floor 0, the lowest room's floor 1. */
function floorOf(room: string): number {
  return room === "ground" ? 0 : FLOORS.findIndex((floor) => floor.includes(room)) + 1;
}

test("every room of harness/ imports only the rooms of lower floors, and the ground no room (tests beside them too)", () => {
  const wrong: string[] = [];
  for (const { from, to, line } of [...imports, ...testImports]) {
    const source = roomOf(from);
    const target = roomOf(to);
    if (!source || !target || source === target || floorOf(target) < floorOf(source)) continue;
    wrong.push(
      `${from}:${line} imports ${to}: ${source}/ stands on floor ${floorOf(source)}, ${target}/ on ${floorOf(target)}`,
    );
  }
  assert.deepEqual(wrong, []);
});

test("the store is opened by the shell alone: no step imports harness/store/ (the rooms cannot, by their floors)", () => {
  const wrong = imports
    .filter(({ from, to }) => to.startsWith("harness/store/") && !from.startsWith("harness/store/"))
    .filter(({ from }) => partOf(from) !== "cli")
    .map(({ from, to, line }) => `${from}:${line} imports ${to}: only cli/ opens the store`);
  assert.deepEqual(wrong, []);
});

test("harness/ holds its rooms, and at its top the ground alone", () => {
  const entries = readdirSync(join(ROOT, "harness"), { withFileTypes: true });
  assert.deepEqual(
    entries.filter((entry) => entry.isDirectory() && !ROOMS.includes(entry.name)).map((entry) => entry.name),
    [],
    "a folder of harness/ that is no room of FLOORS",
  );
  assert.deepEqual(
    entries
      .filter((entry) => entry.isFile())
      .map((entry) => `harness/${entry.name}`)
      .sort(),
    GROUND,
  );
});

test("every room opens with its README.md: what it holds, and the rooms below it that it may use", () => {
  const wrong: string[] = [];
  for (const room of ROOMS) {
    const folder = join(ROOT, "harness", room);
    if (!readdirSync(join(ROOT, "harness")).includes(room)) continue;
    const below = FLOORS.slice(0, floorOf(room) - 1)
      .reverse()
      .flat()
      .map((r) => `${r}/, `)
      .join("");
    const mayUse = `May use: ${below}the ground (harness/*.ts), lib/.`;
    const readme = readdirSync(folder).includes("README.md") ? readFileSync(join(folder, "README.md"), "utf8") : "";
    const [heading, , holds] = readme.split("\n");
    if (heading !== `# harness/${room}/` || !holds)
      wrong.push(`harness/${room}/README.md: "# harness/${room}/", then what it holds`);
    if (!readme.split("\n").includes(mayUse)) wrong.push(`harness/${room}/README.md: "${mayUse}"`);
  }
  assert.deepEqual(wrong, []);
});

test("tests import the reference through its door, as the other parts do", () => {
  const wrong = testImports
    .filter(({ from, to }) => partOf(from) !== "reference" && partOf(to) === "reference" && to !== REFERENCE_DOOR)
    .filter(({ from, to }) => !TESTS_PAST_THE_DOOR[from]?.modules.includes(to))
    .map(({ from, to, line }) => `${from}:${line} imports ${to}: use ${REFERENCE_DOOR}`);
  assert.deepEqual(wrong, []);
});

test("no import circle", () => {
  const edges = new Map<string, string[]>();
  for (const { from, to } of imports) edges.set(from, [...(edges.get(from) ?? []), to]);
  const circles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      circles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
      return;
    }
    state.set(file, "open");
    path.push(file);
    for (const next of edges.get(file) ?? []) visit(next);
    path.pop();
    state.set(file, "done");
  };
  for (const file of files) visit(file);
  assert.deepEqual(circles, []);
});

test(`no source file is over ${MAX_LINES} lines`, () => {
  const long = files
    .map((f) => ({ f, lines: readFileSync(join(ROOT, f), "utf8").trimEnd().split("\n").length }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ f, lines }) => `${relative(ROOT, join(ROOT, f))}: ${lines} lines`);
  assert.deepEqual(long, []);
});

test("undici and cucumber's index are imported at run time only through their doors", () => {
  // Each loads far more than sxd uses (harness/wire/undici.ts and steps/support/cucumber.ts say
  // what), in the run and in every parallel worker. (harness/report/cucumber-formatter.ts
  // requires cucumber's index in the run alone, which has loaded nearly all of it already.)
  const heavy = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*["'](undici|@cucumber\/cucumber)["']/gm;
  const wrong = files.flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(heavy)].map((match) => `${file} imports ${match[1]}`),
  );
  assert.deepEqual(wrong, []);
});

test("steps/ is one folder per behaviour, both sides in it, beside steps/support/; features/ has the same behaviours", () => {
  const folders = (root: string) =>
    readdirSync(join(ROOT, root), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  assert.deepEqual(folders("steps"), [...BEHAVIOURS, "support"].sort());
  const loose = readdirSync(join(ROOT, "steps"), { withFileTypes: true }).filter((entry) => entry.isFile());
  assert.deepEqual(
    loose.map((entry) => entry.name),
    [],
  );
  assert.deepEqual(folders("features"), [...BEHAVIOURS, "clients"].sort());
  assert.deepEqual(folders("features/clients"), [...BEHAVIOURS].sort());
  for (const behaviour of BEHAVIOURS)
    assert.ok(
      CLIENT_STEP_FILES.includes(`steps/${behaviour}/client.steps.ts`) &&
        SERVER_STEP_FILES.some((file) => file.startsWith(`steps/${behaviour}/`)),
      `steps/${behaviour}/ holds both sides`,
    );
});

test("cucumber loads the step files by name: every *.steps.ts is in one list, and every listed file exists", () => {
  const stepFiles = filesUnder(["steps"]).filter((file) => file.endsWith(".steps.ts"));
  const listed = [...SERVER_STEP_FILES, ...CLIENT_STEP_FILES];
  assert.deepEqual(
    stepFiles.filter((file) => listed.filter((l) => l === file).length !== 1),
    [],
    "a step file in no list (or in both) is never loaded (or loaded twice)",
  );
  assert.deepEqual(
    listed.filter((file) => !files.includes(file)),
    [],
  );
});

test("the core names no row: the rules live in features/ and steps/, so `git grep ROW` lands there", () => {
  const naming = files
    .filter((file) => file.startsWith("harness/"))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((text, index) => (ROW_ID.test(text) ? [`${file}:${index + 1}: ${text.trim()}`] : [])),
    );
  assert.deepEqual(naming, []);
});

test("every row is named by the code that judges it, in its behaviour's folder: `git grep ROW` finds it", () => {
  const folderOf: Record<string, string> = { DIG: "digest", EXP: "export", SNAP: "snapshots" };
  const text = (behaviour: string) =>
    files
      .filter((file) => file.startsWith(`steps/${behaviour}/`))
      .map((file) => readFileSync(join(ROOT, file), "utf8"))
      .join("\n");
  const unnamed = loadAllRows()
    .map((row) => row.id)
    .filter((id) => {
      const behaviour = folderOf[id.replace(/^C/, "").replace(/-\d+$/, "")] ?? "";
      return !new RegExp(`\\b${id}\\b`).test(text(behaviour));
    });
  assert.deepEqual(unnamed, []);
});

test(`cucumber's private modules are named in ${CUCUMBER_PRIVATE_DOOR} alone`, () => {
  // They change without notice; there, cucumber-private.test.ts ties them to one cucumber version.
  const privateModule = /["'](@cucumber\/cucumber\/lib\/[^"']*)["']/g;
  const named = [...files, ...testFiles(), ...filesUnder(["scripts"])].flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(privateModule)].map((match) => ({ file, module: match[1] })),
  );
  assert.ok(named.some(({ file }) => file === CUCUMBER_PRIVATE_DOOR));
  const wrong = named
    .filter(({ file }) => file !== CUCUMBER_PRIVATE_DOOR)
    .map(({ file, module }) => `${file} names ${module}: take it from ${CUCUMBER_PRIVATE_DOOR}`);
  assert.deepEqual(wrong, []);
});

const REPORT_NAMES_DOOR = "harness/evidence/report-folder.ts";

test(`the report files are named in ${REPORT_NAMES_DOOR} alone`, () => {
  // A string (or the tail of a template) that is a report file's name, as code spells it to read or write the file.
  const names = Object.values(REPORT_FILES).map((name) => name.replaceAll(".", "\\."));
  const spelled = new RegExp(`["'\`}](${names.join("|")})["'\`]`, "g");
  const named = [...files, ...filesUnder(["scripts"]).filter((f) => !f.endsWith(".test.ts"))].flatMap((file) =>
    [...readFileSync(join(ROOT, file), "utf8").matchAll(spelled)].map((match) => ({ file, name: match[1] })),
  );
  assert.ok(named.some(({ file }) => file === REPORT_NAMES_DOOR));
  const wrong = named
    .filter(({ file }) => file !== REPORT_NAMES_DOOR)
    .map(({ file, name }) => `${file} spells ${name}: take it from REPORT_FILES in ${REPORT_NAMES_DOOR}`);
  assert.deepEqual(wrong, []);
});
