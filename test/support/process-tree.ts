/**
 * The peak resident memory of a process and all its descendants together, polled from /proc
 * (Linux). `/usr/bin/time` would give the largest single process only, and sxd runs its
 * scenarios in worker processes.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface TreeWatch {
  /** Stops polling; the highest sum of VmRSS seen, in bytes (0 where /proc is missing). */
  stop(): number;
}

export function watchTree(rootPid: number, everyMs = 50): TreeWatch {
  let peak = 0;
  const poll = () => {
    peak = Math.max(peak, treeRss(rootPid));
  };
  poll();
  const timer = setInterval(poll, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

function treeRss(rootPid: number): number {
  const children = new Map<number, number[]>();
  let pids: number[];
  try {
    pids = readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return 0;
  }
  for (const pid of pids) {
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const queue = [rootPid];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    total += rssOf(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

function parentOf(pid: number): number | undefined {
  try {
    // The command name, in parentheses, may hold spaces: the fields after its ")" are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function rssOf(pid: number): number {
  try {
    const kib = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kib ? Number(kib) * 1024 : 0;
  } catch {
    return 0;
  }
}
