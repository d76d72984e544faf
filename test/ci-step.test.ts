/**
 * The CI step (ci/sxd-ci.sh), run as the GitHub action and the GitLab template run it: the
 * run's summary.md lands in the job summary, the reports in the report directory, and the step
 * exits with sxd's own code, passing or failing. action.yml and the template hand the step
 * their inputs, and keep the reports whatever the exit code.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { parse } from "yaml"; // @cucumber/cucumber's own (it reads YAML profiles with it)
import { finished, SXD, tempDir } from "./support/cli.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const STEP = join(ROOT, "ci/sxd-ci.sh");

interface Step {
  code: number | null;
  stdout: string;
  summary: string;
  outputs: string;
  reportDir: string;
}

/** The step as a CI runs it, with the job summary and the step's outputs in files of their own. */
async function ciStep(env: Record<string, string>): Promise<Step> {
  const dir = tempDir();
  const files = { summary: join(dir, "step-summary.md"), outputs: join(dir, "outputs") };
  writeFileSync(files.summary, "");
  writeFileSync(files.outputs, "");
  const reportDir = join(dir, "sxd reports");
  const child = spawn("sh", [STEP], {
    cwd: dir,
    env: {
      ...process.env,
      SXD_CI_SXD: `node '${SXD}'`,
      SXD_CI_REPORT_DIR: reportDir,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.outputs,
      ...env,
    },
  });
  const { code, stdout } = await finished(child);
  const read = (file: string) => readFileSync(file, "utf8");
  return { code, stdout, summary: read(files.summary), outputs: read(files.outputs), reportDir };
}

describe("the CI step", () => {
  it("passes sxd's verdict on: the summary table in the job summary, the reports kept, sxd's exit code", async () => {
    const [passing, failing] = await Promise.all([
      ciStep({ SXD_CI_COMMAND: "test", SXD_CI_ARGS: "--tags @DIG-2" }),
      ciStep({ SXD_CI_COMMAND: "test", SXD_CI_ARGS: "--tags @DIG-2 --reference-fault 'dig-no-error-body'" }),
    ]);
    assert.equal(passing.code, 0, passing.stdout);
    assert.match(passing.summary, /^# sxd: conformant$/m);
    assert.match(passing.summary, /^\| MUST \| 1 \|$/m);
    assert.ok(existsSync(join(passing.reportDir, "conformance.json")));
    assert.ok(existsSync(join(passing.reportDir, "junit.xml")));
    assert.match(passing.outputs, /^exit-code=0$/m);

    assert.equal(failing.code, 1, failing.stdout);
    assert.match(failing.summary, /^# sxd: not conformant$/m);
    assert.match(failing.summary, /^\| DIG-2 \| MUST \| failed \| .+ \|$/m);
    assert.match(failing.outputs, /^exit-code=1$/m);
    const report = JSON.parse(readFileSync(join(failing.reportDir, "conformance.json"), "utf8"));
    assert.equal(report.overall, "not conformant");
  });

  it("gives sxd the arguments as a shell quotes them, and keeps any exit code it returns", async () => {
    // A stand-in for sxd: prints each argument it got, then exits 3 without writing a report.
    const shown = await ciStep({
      SXD_CI_SXD: `sh -c 'printf "[%s]\\n" "$@"; exit 3' sxd`,
      SXD_CI_COMMAND: "test-client",
      SXD_CI_ARGS: `--run "sh my adapter.sh" --tasks digest-get`,
    });
    assert.equal(shown.code, 3);
    const args = shown.stdout.split("\n").filter((line) => line.startsWith("["));
    assert.deepEqual(args, [
      "[test-client]",
      "[--report-dir]",
      `[${shown.reportDir}]`,
      "[--run]",
      "[sh my adapter.sh]",
      "[--tasks]",
      "[digest-get]",
    ]);
    assert.match(shown.summary, /^# sxd test-client: exit 3$/m);
    assert.match(shown.summary, /wrote no summary\.md/);
    assert.match(shown.outputs, /^exit-code=3$/m);
  });

  it("refuses a command that is not one of sxd's judging commands, as a usage error", async () => {
    const refused = await ciStep({ SXD_CI_COMMAND: "serve", SXD_CI_SXD: "false" });
    assert.equal(refused.code, 2);
    assert.equal(refused.summary, "");
  });
});

/** A step of a composite action, as far as the test reads it. */
interface ActionStep {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

/** A GitHub Actions expression as the action writes it: ${{ inputs.command }}. */
const expression = (text: string) => `\${{ ${text} }}`;

/** The step's environment variables that a CI must set (SXD_CI_SXD has a default that fits an npm install). */
const STEP_VARIABLES = ["SXD_CI_COMMAND", "SXD_CI_ARGS", "SXD_CI_REPORT_DIR"];

describe("the CI definitions", () => {
  it("action.yml runs the step with its inputs and uploads the reports whatever sxd said", () => {
    const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8"));
    assert.equal(action.runs.using, "composite");
    const inputs = Object.keys(action.inputs);
    for (const name of ["command", "arguments", "report-dir", "node-version", "sxd-source"])
      assert.ok(inputs.includes(name), name);
    const steps: ActionStep[] = action.runs.steps;
    const run = steps.find((step) => /ci\/sxd-ci\.sh/.test(step.run ?? ""));
    assert.ok(run, "a step runs ci/sxd-ci.sh");
    assert.deepEqual(Object.keys(run.env ?? {}).sort(), [...STEP_VARIABLES].sort());
    assert.equal(run.env?.SXD_CI_COMMAND, expression("inputs.command"));
    assert.equal(run.env?.SXD_CI_ARGS, expression("inputs.arguments"));
    assert.equal(run.env?.SXD_CI_REPORT_DIR, expression("inputs.report-dir"));
    const upload = steps.find((step) => String(step.uses).startsWith("actions/upload-artifact@"));
    assert.equal(upload?.if, "always()");
    assert.equal(upload?.with?.path, expression("inputs.report-dir"));
    assert.ok(upload && steps.indexOf(run) < steps.indexOf(upload));
    // Every input the action declares is used, and every one it uses is declared.
    const text = JSON.stringify(action.runs);
    const used = new Set([...text.matchAll(/\$\{\{ inputs\.([a-z-]+) \}\}/g)].map((m) => m[1]));
    assert.deepEqual([...used].sort(), [...inputs].sort());
    assert.equal(action.outputs["exit-code"].value, expression("steps.sxd.outputs.exit-code"));
    assert.equal(run.id, "sxd");
  });

  it("the GitLab template lets the pipeline's variables through, runs the step and keeps the reports and junit.xml", () => {
    const template = parse(readFileSync(join(ROOT, "ci/gitlab/sxd.gitlab-ci.yml"), "utf8"));
    const job = template[".sxd"];
    // GitLab ranks a job's variables above the pipeline's: a default here would hide the user's.
    assert.equal(job.variables, undefined);
    assert.ok(job.script.some((line: string) => /"\$\{SXD_SOURCE:-sxd\}"/.test(line)));
    assert.ok(job.script.some((line: string) => /sh .*\/sxd\/ci\/sxd-ci\.sh/.test(line)));
    // What the job keeps is the step's own default report folder, and the folders inside it.
    const folder = /report_dir=\$\{SXD_CI_REPORT_DIR:-([^}]+)\}/.exec(readFileSync(STEP, "utf8"))?.[1];
    assert.equal(job.artifacts.when, "always");
    assert.deepEqual(job.artifacts.paths, [`${folder}/`]);
    assert.deepEqual(job.artifacts.reports.junit, [`${folder}/junit.xml`, `${folder}/*/junit.xml`]);
  });

  it("the step reads no variable the definitions do not know", () => {
    const read = new Set(readFileSync(STEP, "utf8").match(/\bSXD_CI_[A-Z_]+/g));
    assert.deepEqual([...read].sort(), [...STEP_VARIABLES, "SXD_CI_SXD"].sort());
  });
});
