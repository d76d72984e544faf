// How a server's cells are laid in lanes: each cell on state of its own runs at once with the
// others, the cells that share the server's state (the export, a named entry) one after another.
import assert from "node:assert/strict";
import { it } from "node:test";
import { resolveDescription } from "../description/target.ts";
import type { InteropTask } from "../evidence/interop-document.ts";
import { lanesOf, slotsOf } from "./lanes.ts";

const cellsOf = (tasks: InteropTask[]) =>
  ["a", "b"].flatMap((client) => tasks.map((task) => ({ client, server: "s", task })));
const shown = (lanes: { client: string; task: string }[][]) =>
  lanes.map((lane) => lane.map((cell) => `${cell.client} ${cell.task}`).join(", "));

it("digest cells and fresh entries run each alone; the export's cells in one lane", () => {
  const target = resolveDescription([{ baseUrl: "http://b.test" }]);
  assert.ok(target.ok);
  assert.deepEqual(shown(lanesOf(cellsOf(["digest-get", "update", "export"]), target.value)), [
    "a digest-get",
    "a update",
    "a export, b export",
    "b digest-get",
    "b update",
  ]);
});

it("update and history on the entry the description names share it: one lane", () => {
  const target = resolveDescription([
    { baseUrl: "http://b.test" },
    { snapshots: { collection: "/entries/", resources: [{ path: "/entries/named" }] } },
  ]);
  assert.ok(target.ok);
  assert.deepEqual(shown(lanesOf(cellsOf(["update", "history", "digest-post"]), target.value)), [
    "a update, a history, b update, b history",
    "a digest-post",
    "b digest-post",
  ]);
});

it("slots: at most the limit hold one at once, the next waits for a give", async () => {
  const slots = slotsOf(2);
  const order: string[] = [];
  await slots.take();
  await slots.take();
  const third = slots.take().then(() => order.push("third"));
  await new Promise((resolve) => setImmediate(resolve));
  order.push("before the give");
  slots.give();
  await third;
  assert.deepEqual(order, ["before the give", "third"]);
});
