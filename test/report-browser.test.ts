// The reports as a person sees them, opened in headless Chromium: the conformance report with
// its summary on top, failures first, a failed row open on its transcript and a copy-as-curl
// line; the interop matrix first, its gaps after it, and a filter read from the page's URL; the
// history page's strips of stretches.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { writeInteropHtml } from "../harness/report/interop-html.ts";
import { referenceDescriptionFile, sxdHere, tempDir } from "./support/cli.ts";
import { sampleInterop } from "./support/interop-document.ts";
import { BROKEN_THEN_FIXED, underLabels } from "./support/labels.ts";
import { runAgainstReference } from "./support/suite.ts";

const CHROMIUM = "/usr/bin/chromium";

let launched: Promise<Browser> | undefined;
/** One browser for the file's tests, a page each: a launch costs more than the page. */
function launch(): Promise<Browser> {
  launched ??= chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return launched;
}
after(async () => {
  await (await launched)?.close();
});

test("the HTML report shows the verdict, failures first, with transcripts", async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing: run scripts/setup-chromium.sh (as root) to include this test`);
    return;
  }
  const run = await runAgainstReference({
    faults: ["snap-update-200"],
    tags: "@SNAP-1 or @SNAP-2 or @SNAP-8",
    strict: true,
    reportFiles: true,
  });
  const page = `file://${join(run.reportDir, "conformance.html")}`;
  const tab = await (await launch()).newPage({ viewport: { width: 1200, height: 900 } });
  try {
    await tab.goto(page);
    assert.equal(await tab.locator("#overall").innerText(), "not conformant");
    const firstRow = tab.locator("details.row").first();
    assert.equal(await firstRow.getAttribute("data-row"), "SNAP-2");
    assert.equal(await firstRow.getAttribute("data-verdict"), "failed");
    mkdirSync("reports", { recursive: true });
    await tab.screenshot({ path: "reports/conformance-report.png", fullPage: false });
    // A failed row opens by itself on its reason; its scenarios unfold to the exchange.
    assert.match(await firstRow.locator(".reason").innerText(), /expected status 204/);
    await firstRow.locator("details.scenario summary").first().click();
    const curl = firstRow.locator("pre.curl").first();
    assert.ok(await curl.isVisible());
    assert.match(await curl.innerText(), /^curl -i /);
    assert.match(await tab.locator("#counts").innerText(), /MUST/);
  } finally {
    await tab.close();
  }
});

/** How many colours a screenshot shows, sampled on a grid: a blank page shows one. The browser decodes it. */
async function screenshotColours(tab: Page, path: string): Promise<number> {
  const png = (await tab.screenshot({ path, fullPage: false })).toString("base64");
  return tab.evaluate(`(async () => {
    const image = new Image();
    image.src = "data:image/png;base64,${png}";
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, image.width, image.height).data;
    const colours = new Set();
    for (let y = 0; y < image.height; y += 7)
      for (let x = 0; x < image.width; x += 7) {
        const i = (y * image.width + x) * 4;
        colours.add(data[i] + "," + data[i + 1] + "," + data[i + 2]);
      }
    return colours.size;
  })()`);
}

test("interop.html shows the matrix first, the gaps after it, and the filter in its URL applies", async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing: run scripts/setup-chromium.sh (as root) to include this test`);
    return;
  }
  const reportDir = mkdtempSync(join(tmpdir(), "sxd-interop-browser-"));
  const doc = sampleInterop();
  const neither = doc.cells.find((c) => c.blame === "neither") ?? assert.fail();
  const reply = { status: 401, headers: { "www-authenticate": ['Digest realm="x", algorithm="sha-256"'] }, body: "" };
  const evidence = join(reportDir, neither.evidence);
  mkdirSync(evidence, { recursive: true });
  writeFileSync(
    join(evidence, "exchange.json"),
    JSON.stringify([{ server: "base", method: "GET", target: "/p", headers: {}, body: "", at: "t", reply }]),
  );
  writeInteropHtml(reportDir, doc);
  const tab = await (await launch()).newPage({ viewport: { width: 1200, height: 900 } });
  try {
    const page = `file://${join(reportDir, "interop.html")}`;
    await tab.goto(page);
    assert.equal(await tab.locator("#matrix .mark:visible").count(), doc.cells.length);
    mkdirSync("reports", { recursive: true });
    assert.ok((await screenshotColours(tab, "reports/interop-report.png")) > 5, "the screenshot is not blank");
    const top = async (selector: string) => (await tab.locator(selector).boundingBox())?.y ?? assert.fail(selector);
    assert.ok((await top("#matrix")) < (await top("#gaps")), "the matrix comes before the gaps");

    // A shared link with a filter shows the same filter: only the neither cell, the boxes set to match.
    await tab.goto(`${page}#blame=neither`);
    const shown = tab.locator("#matrix .mark:visible");
    assert.equal(await shown.count(), 1);
    assert.equal(await shown.getAttribute("data-client"), neither.client);
    assert.equal(await shown.getAttribute("data-task"), neither.task);
    assert.equal(await tab.locator('input[name="blame"][value="client"]').isChecked(), false);
    assert.match(await tab.locator("#shown").innerText(), new RegExp(`^1 of ${doc.cells.length} `));

    // Ticking a box writes the URL; the mark opens the cell's evidence, its exchange in it.
    await tab.locator('input[name="blame"][value="server"]').check();
    assert.ok(new URL(tab.url()).hash.includes("blame=server,neither"), tab.url());
    assert.equal(await shown.count(), 2);
    await tab.locator("#matrix .mark.blame-neither").click();
    await tab.waitForURL(/index\.html$/);
    assert.match(await tab.locator("#result").innerText(), /failed \(blame: neither\)/);
    assert.match(await tab.locator("#exchange + p + ol").innerText(), /algorithm="sha-256"/);
  } finally {
    await tab.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
});

test("history.html at 1280 px: a row's strip of stretches, the run that broke it and the one that fixed it", async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing: run scripts/setup-chromium.sh (as root) to include this test`);
    return;
  }
  const dir = tempDir();
  const store = join(dir, "runs.db");
  // One server at one address, tried under three labels: correct, with DIG-1 broken, fixed.
  await underLabels(BROKEN_THEN_FIXED, async (baseUrl, label) => {
    const run = await sxdHere([
      "test",
      ...["--config", referenceDescriptionFile(), "--base-url", baseUrl, "--tags", "@DIG-1"],
      ...["--store", store, "--label", label, "--report-dir", join(dir, label)],
    ]);
    assert.equal(run.code, label === "broken" ? 1 : 0, run.stderr);
  });
  const html = join(dir, "history");
  const made = await sxdHere(["history", "--store", store, "--html", html]);
  assert.equal(made.code, 0, made.stderr);
  const tab = await (await launch()).newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await tab.goto(`file://${join(html, "history.html")}`);
    const row = tab.locator("tr#DIG-1");
    assert.deepEqual(await row.locator(".strip span").evaluateAll((spans) => spans.map((s) => s.className)), [
      "passed",
      "failed",
      "passed",
    ]);
    const cells = await row.locator("td").allInnerTexts();
    assert.match(cells[1] ?? "", /^broken, \d{4}-\d{2}-\d{2}$/, "first failed");
    assert.match(cells[2] ?? "", /^fixed, \d{4}-\d{2}-\d{2}$/, "fixed by");
    assert.equal(cells[3], "", "a change between labels is not intermittent");
    // The broken stretch says why in words; the exchange it quotes unfolds under them.
    const why = row.locator("details");
    assert.match(await why.locator("summary").innerText(), /^expected status 401\s+but got status 403$/);
    assert.equal(await why.locator("pre").isVisible(), false);
    await why.locator("summary").click();
    assert.match(await why.locator("pre").innerText(), /^in the exchange:\n\s+> GET /);
    // The strips take their width from the page: at 1280 px each stretch is a visible segment.
    for (const box of await row
      .locator(".strip span")
      .evaluateAll((spans) => spans.map((s) => s.getBoundingClientRect().width)))
      assert.ok(box >= 3, `a segment ${box} px wide`);
    mkdirSync("reports", { recursive: true });
    assert.ok((await screenshotColours(tab, "reports/history-page.png")) > 3, "the screenshot is not blank");
  } finally {
    await tab.close();
  }
});
