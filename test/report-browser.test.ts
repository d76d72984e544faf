// The conformance report as a person sees it: opened in headless Chromium, summary on
// top, failures first, a failed row open on its transcript and a copy-as-curl line.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { runAgainstReference } from "./support/suite.ts";

const CHROMIUM = "/usr/bin/chromium";

test("the HTML report shows the verdict, failures first, with transcripts", async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is missing: run scripts/setup-chromium.sh (as root) to include this test`);
    return;
  }
  const run = await runAgainstReference({
    faults: ["snap-update-200"],
    tags: "@SNAP-1 or @SNAP-2 or @SNAP-8",
    strict: true,
  });
  const page = `file://${join(run.reportDir, "conformance.html")}`;
  const browser = await chromium.launch({
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
  try {
    const tab = await browser.newPage({ viewport: { width: 1200, height: 900 } });
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
    await browser.close();
  }
});
