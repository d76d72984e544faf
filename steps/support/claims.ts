/**
 * Claims on the fixed resources a target description names (`snapshots.resources`): a
 * scenario updates a resource only while it holds its claim, so parallel workers, which are
 * separate processes, and two runs on one machine never update the same resource at once.
 * A claim is a directory, made atomically; one whose process has died is taken over.
 *
 * @example
 *   const release = tryClaim("http://host/notes/1");
 *   if (release) try { … } finally { release(); }
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(tmpdir(), "sxd-claims");

/**
 * Claims the key; returns the release, or undefined when another live process holds it. The
 * last release removes the root too, so that a run leaves nothing in the temporary folder.
 */
export function tryClaim(key: string, root = ROOT): (() => void) | undefined {
  const dir = join(root, createHash("sha256").update(key).digest("hex").slice(0, 32));
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      mkdirSync(root, { recursive: true });
      mkdirSync(dir);
      writeFileSync(join(dir, "pid"), String(process.pid));
      return () => {
        rmSync(dir, { recursive: true, force: true });
        removeIfEmpty(root);
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another process's last release removed the root between its making and the claim's.
      if (code === "ENOENT") continue;
      if (code !== "EEXIST" || !abandoned(dir)) return undefined;
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return undefined;
}

/** Removes the folder where it is empty; one that holds another process's claim stays. */
function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // Not empty (another claim), or already removed by another release.
  }
}

/** The claim's process is gone; a claim whose pid is not written yet is still being made. */
function abandoned(dir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dir, "pid"), "utf8"));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}
