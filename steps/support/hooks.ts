import { After, setDefaultTimeout } from "@cucumber/cucumber";
import { EXCHANGES_MEDIA_TYPE } from "../../cli/outcomes.ts";
import { formatExchange } from "./http.ts";
import type { SxdWorld } from "./world.ts";

/** The CLI sets this from --timeout; a step may make a few requests, each with that budget. */
const requestTimeout = Number(process.env.SXD_REQUEST_TIMEOUT_MS ?? 10000);
setDefaultTimeout(requestTimeout * 4 + 1000);

After(async function (this: SxdWorld) {
  for (const task of this.cleanups) {
    try {
      await task();
    } catch {
      // A failed clean-up must not hide the scenario's own verdict.
    }
  }
  const exchanges = this.http.exchanges;
  if (exchanges.length > 0) {
    this.attach(exchanges.map(formatExchange).join("\n\n"), "text/plain");
    this.attach(JSON.stringify(exchanges), EXCHANGES_MEDIA_TYPE);
  }
  await this.http.close();
});
