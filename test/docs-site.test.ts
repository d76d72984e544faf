// The site `sxd docs` writes, built once against the bundled reference and the example client,
// with one other server's results, one other client's and an interop run: every row of both sides anchored,
// every scenario with a recorded exchange, no broken link, no request outside the site; then
// in Chromium: search, filters, accessibility.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";
import { buildDocs } from "../cli/docs.ts";
import { loadDocFeatures, runLocations } from "../harness/docs/features.ts";
import { UsageError } from "../harness/errors.ts";
import type { ConformanceDocument } from "../harness/evidence/conformance-document.ts";
import type { LimitsDocument } from "../harness/evidence/limits-document.ts";
import { behaviourOf } from "../harness/evidence/presentation.ts";
import { loadLimitRows, loadRows, type Row } from "../harness/judging/catalogue.ts";
import { PACKAGE_ROOT } from "../harness/package.ts";
import { REFERENCE_DESCRIPTION } from "../reference/index.ts";
import { sampleInterop } from "./support/interop-document.ts";

const CHROMIUM = "/usr/bin/chromium";
const work = mkdtempSync(join(tmpdir(), "sxd-docs-test-"));
const siteDir = join(work, "site");
const serverRows = loadRows("server");
const clientRows = loadRows("client");
const rows = [...serverRows, ...clientRows];
const CLIENT_COMMAND = "python3 my_client.py";

/**
 * Another run: one row failed with a reason, every other row of its side passed; its report
 * beside it. A client run names its target as sxd test-client does: `client: <command>`.
 */
function otherRun(name: string, sideRows: Row[], failing: string, client?: string): string {
  const dir = join(work, name);
  mkdirSync(dir);
  const doc: ConformanceDocument = {
    suite: { name: "sxd", version: "0" },
    target: { baseUrl: client ? `client: ${client}` : "http://other.example:8080" },
    date: "2026-01-01T00:00:00Z",
    strict: false,
    overall: "not conformant",
    ...(client ? { client: { command: client, runs: [] } } : {}),
    rows: sideRows.map((row) => ({
      id: row.id,
      level: row.level,
      rule: row.rule,
      verdict: row.id === failing ? "failed" : "passed",
      reason: row.id === failing ? `${name}: expected this, got that` : undefined,
      scenarios: [{ name: "s", location: "features/x.feature:1", status: "passed", exchanges: [] }],
    })),
  };
  writeFileSync(join(dir, "conformance.json"), JSON.stringify(doc));
  writeFileSync(join(dir, "conformance.html"), `<!DOCTYPE html><title>${name}</title>`);
  return join(dir, "conformance.json");
}

/** An interop run beside them: the tests' small matrix, which breaks DIG-14 and CDIG-3. */
function interopRun(doc: object): string {
  const dir = mkdtempSync(join(work, "interop-"));
  writeFileSync(join(dir, "interop.json"), JSON.stringify(doc));
  return join(dir, "interop.json");
}

/**
 * A limits.json of another server (--limits): LIM-1 measured at three sizes and growing, LIM-5
 * not run. Given, so that this build measures no reference (test/package.test.ts builds the site
 * as a user does, measuring it).
 */
function limitsRun(): string {
  const points = [10, 100, 1000].map((size, i) => ({
    size,
    median: 2 ** i,
    spread: 0.1,
    repeats: [2 ** i * 0.9, 2 ** i, 2 ** i * 1.1],
  }));
  const series = { name: "GET s1", unit: "ms", points, exponent: 0.301, ratio: 4, growth: "linear", why: "x" };
  const doc: LimitsDocument = {
    tool: "sxd limits",
    version: "0",
    target: "http://limits.example:8080",
    startedAt: "2026-01-01T00:00:00Z",
    elapsedMs: 9000,
    repeats: 3,
    deadlineSeconds: 600,
    memory: "not observed",
    cases: [
      {
        id: "LIM-1",
        measures: "m",
        size: { name: "N", unit: "versions" },
        sizes: [10, 100, 1000],
        status: "measured",
        growth: "linear",
        lowered: [],
        series: [series],
      },
      {
        id: "LIM-5",
        measures: "m",
        size: { name: "N", unit: "contacts" },
        sizes: [],
        status: "not run",
        reason: "export.longLists is not stated",
        lowered: [],
        series: [],
      },
    ],
  };
  const file = join(work, "limits.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

const built = buildDocs(
  siteDir,
  [
    otherRun("other", serverRows, "DIG-4"),
    otherRun("other-client", clientRows, "CDIG-2", CLIENT_COMMAND),
    interopRun(sampleInterop()),
  ],
  limitsRun(),
);

/** The part of a page that is one row's section. */
function section(html: string, id: string): string {
  const at = html.indexOf(`<section class="row filterable" id="${id}"`);
  assert.ok(at >= 0, `a section for ${id}`);
  return html.slice(at, html.indexOf("</section>", at));
}

function page(name: string): string {
  return readFileSync(join(siteDir, name), "utf8");
}

test("the site: every row of both sides anchored on its behaviour's page and listed in the index, the server's first", async () => {
  await built;
  const index = page("index.html");
  const listed = [...index.matchAll(/<th scope="row"><a href="[a-z-]+\.html#([A-Z]+-\d+)">/g)].map((m) => m[1]);
  assert.deepEqual(
    listed,
    rows.map((r) => r.id),
  );
  assert.ok(clientRows.length > 0 && clientRows.every((r) => behaviourOf(r.id).slug.startsWith("client-")));
  for (const row of rows) {
    const file = `${behaviourOf(row.id).slug}.html`;
    assert.match(page(file), new RegExp(`<section class="row filterable" id="${row.id}"`), `${row.id} in ${file}`);
    assert.ok(index.includes(`href="${file}#${row.id}"`), `the index links ${row.id}`);
  }
  // Catalogue order on each page.
  const digestIds = [...page("digest.html").matchAll(/<section class="row filterable" id="([A-Z]+-\d+)"/g)].map(
    (m) => m[1],
  );
  assert.deepEqual(
    digestIds,
    rows.filter((r) => r.id.startsWith("DIG-")).map((r) => r.id),
  );
  assert.match(page("client-digest.html"), /<p class="intro">These rules bind a client/);
  assert.doesNotMatch(page("digest.html"), /<p class="intro">/);
});

test("the site: every scenario run of both sides shows at least one recorded exchange, and never the secret", async () => {
  await built;
  for (const side of ["server", "client"] as const) {
    const prefix = side === "client" ? "client-" : "";
    const html = ["digest", "export", "snapshots"].map((b) => page(`${prefix}${b}.html`)).join("\n");
    const recordedBy =
      side === "client" ? "What the example client sent to sxd" : "The exchange with the bundled reference";
    for (const feature of loadDocFeatures(PACKAGE_ROOT, side)) {
      for (const scenario of feature.scenarios) {
        for (const location of runLocations(scenario)) {
          const at = html.indexOf(`data-location="${location}"`);
          assert.ok(at >= 0, `${location} (${scenario.name}) has a recorded exchange`);
          const block = html.slice(at, html.indexOf("</details>", at));
          assert.match(block, /class="exchange"/, `${location} shows a request`);
          assert.ok(block.includes(recordedBy), `${location} says who made its exchange`);
        }
      }
    }
  }
  // A client's exchange is what the client sent: its Digest answer to sxd's challenge.
  assert.match(section(page("client-digest.html"), "CDIG-2"), /authorization: Digest username=&quot;demo&quot;/);
  for (const name of readdirSync(siteDir)) {
    assert.ok(!page(name).includes(REFERENCE_DESCRIPTION.digest.password), `${name} shows no secret`);
  }
});

test("the site: no broken link, nothing loaded from elsewhere, the other runs' verdicts beside the rows of their side", async () => {
  await built;
  const ids = new Map(
    readdirSync(siteDir).map((name) => [name, new Set([...page(name).matchAll(/ id="([^"]+)"/g)].map((m) => m[1]))]),
  );
  for (const name of readdirSync(siteDir).filter((n) => n.endsWith(".html"))) {
    for (const [, attribute, target] of page(name).matchAll(/ (href|src)="([^"]*)"/g)) {
      assert.ok(target && !/^[a-z]+:|^\/\//i.test(target), `${name}: ${attribute}="${target}" stays on disk, relative`);
      const [file = "", fragment] = target.split("#");
      const path = file === "" ? join(siteDir, name) : resolve(siteDir, file);
      assert.ok(existsSync(path), `${name}: ${target} exists`);
      if (fragment)
        assert.ok(ids.get(file || name)?.has(fragment), `${name}: #${fragment} is an anchor of ${file || name}`);
    }
  }
  const dig4 = section(page("digest.html"), "DIG-4");
  assert.match(dig4, /http:\/\/other\.example:8080<\/a>/);
  assert.match(dig4, /failed<\/span><\/td><td>other: expected this, got that/);
  assert.doesNotMatch(dig4, /my_client/, "a client's run says nothing of a server row");
  const cdig2 = section(page("client-digest.html"), "CDIG-2");
  assert.match(cdig2, /<th scope="col">client<\/th>/);
  assert.match(cdig2, /client <code title="python3 my_client\.py">python3 my_client\.py<\/code><\/a>/);
  assert.match(cdig2, /failed<\/span><\/td><td>other-client: expected this, got that/);
  assert.doesNotMatch(cdig2, /other\.example/, "a server's run says nothing of a client row");
  const index = page("index.html");
  assert.match(index, /href="..\/other\/conformance.html"/);
  assert.match(index, /href="..\/other-client\/conformance.html"/);
  // Each run's column: a dash on the other side's rows, a verdict on its own.
  const indexRow = (id: string) =>
    index.slice(index.indexOf(`#${id}"`), index.indexOf("</tr>", index.indexOf(`#${id}"`)));
  assert.match(indexRow("DIG-4"), /failed<\/span><\/td><td class="other-side"[^>]*>–<\/td>$/);
  assert.match(indexRow("CDIG-2"), /<td class="other-side"[^>]*>–<\/td><td[^>]*><span class="verdict failed">/);
  const { bytes, seconds } = await built;
  process.stdout.write(`# docs site: ${Math.round(bytes / 1024)} KiB, built in ${seconds.toFixed(1)} s\n`);
});

test("an interop.json given with --results: the pairs under the rows they broke, the score on the index", async () => {
  await built;
  const dig14 = section(page("digest.html"), "DIG-14");
  assert.match(dig14, /<tr><th scope="row">quoting<\/th><td[^>]*><span class="verdict failed">fails<\/span>/);
  assert.match(dig14, /wget × quoting, digest-get \(blame: server\)/);
  assert.match(section(page("client-digest.html"), "CDIG-3"), /curl × strict, digest-get \(blame: client\)/);
  assert.match(page("index.html"), /<td class="score">1 of 4 \(25%\)<\/td>/);
});

test("the page of LIM cases: every case of the catalogue, and what the limits.json given measured, with its charts", async () => {
  await built;
  const limits = page("lim-cases.html");
  for (const row of loadLimitRows()) assert.match(limits, new RegExp(`<section class="limit" id="${row.id}">`));
  assert.match(limits, /what <code>sxd limits<\/code> measured of http:\/\/limits\.example:8080/);
  const lim1 = limits.slice(limits.indexOf('id="LIM-1"'), limits.indexOf('id="LIM-2"'));
  assert.match(lim1, /<b>Measured:<\/b> linear/);
  assert.equal([...lim1.matchAll(/<circle /g)].length, 9, "a point per repeat");
  assert.match(lim1, /N \(versions\), log scale/);
  assert.match(limits, /<b>Measured:<\/b> not run: export\.longLists is not stated/);
  const lim2 = limits.slice(limits.indexOf('id="LIM-2"'), limits.indexOf('id="LIM-3"'));
  assert.doesNotMatch(lim2, /Measured:/, "a case the run did not report shows no measurement");
});

test("a results file that cannot be read is a usage error, before the suite runs", async () => {
  await assert.rejects(
    buildDocs(join(work, "never"), [interopRun({ ...sampleInterop(), version: 2 })]),
    (error) => error instanceof UsageError && /cannot read .*interop\.json: .* version 2/.test(error.message),
  );
  await assert.rejects(
    buildDocs(join(work, "never"), [join(work, "missing.json")]),
    (error) => error instanceof UsageError && /cannot read .*missing\.json/.test(error.message),
  );
  await assert.rejects(
    buildDocs(join(work, "never"), [], join(work, "missing-limits.json")),
    (error) => error instanceof UsageError && /cannot read .*missing-limits\.json/.test(error.message),
  );
  assert.ok(!existsSync(join(work, "never")));
});

test("the site in Chromium: search, level filter, no console error, no request outside, axe", async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing: run scripts/setup-chromium.sh (as root) to include this test`);
    return;
  }
  await built;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    // axe-core itself reads the style sheets with XMLHttpRequest, which Chromium refuses on
    // file:// and logs: the page's own messages are those before axe runs.
    let axeRunning = false;
    tab.on("console", (m) => {
      if (m.type() === "error" && !axeRunning) problems.push(`console: ${m.text()}`);
    });
    tab.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    tab.on("request", (r) => {
      const url = r.url();
      if (!url.startsWith(`file://${siteDir}/`)) problems.push(`request outside the site: ${url}`);
    });
    await tab.goto(`file://${siteDir}/index.html`);
    await tab.fill("#search", "stale");
    assert.ok(await tab.locator('tr.filterable:has(a[href="digest.html#DIG-10"])').isVisible(), "stale finds DIG-10");
    assert.ok(!(await tab.locator('tr.filterable:has(a[href="digest.html#DIG-4"])').isVisible()));
    await tab.fill("#search", "");
    await tab.uncheck("#level-should");
    await tab.uncheck("#level-may");
    assert.equal(await tab.locator('.filterable[data-level="should"]:visible').count(), 0);
    assert.equal(
      await tab.locator('.filterable[data-level="must"]:visible').count(),
      rows.filter((r) => r.level === "must").length,
    );
    axeRunning = true;
    assert.deepEqual(await seriousFindings(tab), []);
    axeRunning = false;

    await tab.goto(`file://${siteDir}/digest.html#DIG-4`);
    await tab.uncheck("#level-must");
    assert.equal(await tab.locator("section#DIG-4").isVisible(), false, "MUST filtered out on a behaviour page");
    await tab.check("#level-must");
    const section = tab.locator("section#DIG-4");
    await section.locator("details.recorded summary").first().click();
    const shot = join(PACKAGE_ROOT, "reports", "docs-dig-4.png");
    mkdirSync(dirname(shot), { recursive: true });
    await section.screenshot({ path: shot });
    assert.deepEqual(problems, []);
    axeRunning = true;
    assert.deepEqual(await seriousFindings(tab), []);
    axeRunning = false;

    // The charts at 1280 px: within the page's width, and no two labels of a chart overlap.
    await tab.setViewportSize({ width: 1280, height: 900 });
    await tab.goto(`file://${siteDir}/lim-cases.html`);
    const layout = await tab.evaluate(CHART_LAYOUT);
    assert.deepEqual(layout, { charts: 1, overlaps: [], wider: false });
    assert.deepEqual(problems, []);
    axeRunning = true;
    assert.deepEqual(await seriousFindings(tab), []);
  } finally {
    await browser.close();
  }
});

/**
 * Run in the page (a string: this project's types have no DOM): its charts, the pairs of labels
 * of one chart that overlap, and whether the page is wider than the window.
 */
const CHART_LAYOUT = `(() => {
  const overlaps = [];
  for (const svg of document.querySelectorAll("svg")) {
    const boxes = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
    for (const [i, a] of boxes.entries())
      for (const b of boxes.slice(i + 1))
        if (a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom)
          overlaps.push(a.text + " / " + b.text);
  }
  return { charts: document.querySelectorAll("svg").length, overlaps, wider: document.documentElement.scrollWidth > window.innerWidth };
})()`;

/** axe-core's serious and critical findings on the page, one line each. */
async function seriousFindings(tab: Page): Promise<string[]> {
  await tab.addScriptTag({ path: fileURLToPath(import.meta.resolve("axe-core/axe.min.js")) });
  const violations = await tab.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact}: ${v.id} (${v.nodes} elements)`);
}
