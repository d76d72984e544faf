/** What interop.html and its cells' evidence pages share: the style sheet, and how a result reads in words. */
import type { InteropCell } from "../evidence/interop-document.ts";

/** "failed (blame: client)", "succeeded", "not applicable": a result read without colour. */
export function resultText(cell: Pick<InteropCell, "result" | "blame">): string {
  return cell.result === "failed" && cell.blame ? `failed (blame: ${cell.blame})` : cell.result;
}

/** A task's mark in a matrix cell: a sign and a word, so the matrix reads without colour too. */
export function markText(cell: Pick<InteropCell, "result" | "blame">): string {
  switch (cell.result) {
    case "succeeded":
      return "✓";
    case "failed":
      return `✗ ${cell.blame ?? "failed"}`;
    case "unsupported":
      return "– unsupported";
    default:
      return "n/a";
  }
}

export const INTEROP_CSS = `
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1300px; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #555; margin-bottom: 1rem; }
table { border-collapse: collapse; margin: .6rem 0; }
td, th { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; vertical-align: top; }
caption { text-align: left; font-weight: 600; }
pre { background: #f6f8fa; padding: .5rem; border-radius: 4px; font-size: 12.5px; white-space: pre-wrap; word-break: break-word; margin: .2rem 0; }
pre.request { border-left: 3px solid #1f3a5f; } pre.reply { border-left: 3px solid #2f5d2f; }
.note { font-style: italic; color: #555; margin: .8rem 0 .2rem; }
.succeeded { background: #d8f5dd; } .failed { background: #ffd9d6; }
.unsupported, .not-applicable { background: #eee; color: #555; }
.blame-neither { background: #e6e0ff; outline: 2px solid #7b61ff; }
a.mark { display: block; color: inherit; text-decoration: none; padding: .05rem .35rem; margin: .1rem 0; border-radius: 3px; white-space: nowrap; }
a.mark:hover { text-decoration: underline; }
.mark .task { font-size: .8rem; color: #333; margin-right: .3rem; }
td.nothing-shown::after { content: "–"; color: #999; }
.own-verdict { font-size: .8rem; display: inline-block; padding: 0 .35rem; border-radius: 3px; }
.own-verdict.conformant { background: #d8f5dd; } .own-verdict.non-conformant { background: #ffd9d6; }
.own-verdict.incomplete, .own-verdict.not-run { background: #e4e4ea; }
.problem { color: #991b1b; font-size: .85rem; }
form#filters { background: #f4f6f8; padding: .4rem .8rem; border: 1px solid #dde; border-radius: 4px; }
fieldset { display: inline-block; border: 1px solid #ccd; margin: .2rem .6rem .2rem 0; }
.missing, .no-rows { color: #555; font-style: italic; }
ol.exchanges > li { margin-bottom: 1rem; }
`;
