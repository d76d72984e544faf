import assert from "node:assert/strict";
import { test } from "node:test";
import { readEntry } from "../support/atom.ts";
import { chainStops, loopBack } from "./checks.ts";
import type { ScratchResource } from "./snapshots.ts";

const RESOURCE = "http://h.example/notes/n";
/** A resource updated twice: snapshots s1 and s2, then the resource. */
const resource: ScratchResource = {
  url: RESOURCE,
  id: "urn:x",
  versions: [1, 2, 3].map((k) => ({ authorName: "A", title: `v${k}`, content: { text: "c" } })),
  base: 0,
};

/** The previous links of s1 as served with these hrefs. */
function previousOfS1(...hrefs: string[]) {
  const links = hrefs.map((href) => `<link rel="previous" href="${href}"/>`).join("");
  const body = `<entry xmlns="http://www.w3.org/2005/Atom"><title>v1</title><id>urn:x</id>${links}</entry>`;
  const read = readEntry(body, `${RESOURCE}/s1`);
  assert.ok(read.ok);
  return read.entry.links;
}

const loopsTo = (...hrefs: string[]) => loopBack(previousOfS1(...hrefs), chainStops(resource))?.stop.name;

test("SNAP-5, SNAP-6: a previous link from s1 to itself, a later snapshot or the resource is a loop", () => {
  assert.equal(loopsTo(`${RESOURCE}/s1`), "snapshot s1");
  assert.equal(loopsTo("s1"), "snapshot s1", "a relative href is resolved before it is compared");
  assert.equal(loopsTo(`${RESOURCE}/s2`), "snapshot s2");
  assert.equal(loopsTo("HTTP://H.EXAMPLE:80/notes/n"), "the resource", "the same URI, written otherwise");
  assert.equal(loopsTo(`${RESOURCE}/s0`, `${RESOURCE}`), "the resource", "any of several previous links");
});

test("SNAP-5, SNAP-6: s1 without a previous link, or with one outside the chain, loops nowhere (the spec leaves it open)", () => {
  assert.equal(loopsTo(), undefined);
  assert.equal(loopsTo(`${RESOURCE}/s0`), undefined);
  assert.equal(loopsTo("http://h.example/notes/other/s1"), undefined);
});

test("on a resource found with snapshots, the scenario's chain starts after them: s<base> is before it", () => {
  const found = chainStops({ ...resource, base: 4 });
  assert.deepEqual(
    found.map((s) => s.url),
    [`${RESOURCE}/s5`, `${RESOURCE}/s6`, RESOURCE],
  );
  assert.equal(loopBack(previousOfS1(`${RESOURCE}/s4`), found), undefined);
});
