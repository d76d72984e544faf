/** Where a row's section is on the published site (`sxd test --docs-url`), for reports to link to. */
import { withoutTrailingSlashes } from "../../lib/uri.ts";
import { behaviourOf } from "./page.ts";

/** `https://example.org/sxd` + DIG-4 → `https://example.org/sxd/digest.html#DIG-4`. */
export function rowDocsUrl(docsUrl: string, rowId: string): string {
  return `${withoutTrailingSlashes(docsUrl)}/${behaviourOf(rowId).slug}.html#${rowId}`;
}
