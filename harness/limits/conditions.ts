/**
 * Which repeats of a LIM case may be classed together: those measured under one condition (an
 * update sent once the server's clock had passed the version before, say). Two sizes measured
 * under different conditions would show the condition as growth. Pure.
 */

/** One repeat's costs by series, and the condition it was measured under where the case tells one. */
export interface Repeat {
  cost: Record<string, number>;
  under?: string;
}

/**
 * The repeats measured under the condition most of them were (all, where the case tells none):
 * two sizes measured under different conditions are never classed together. The others are left
 * out of the points, and `apart` says which and why.
 */
export function underOneCondition(
  repeats: ReadonlyMap<number, readonly Repeat[]>,
  sizeName: string,
): { kept: Map<number, Array<Record<string, number>>>; apart?: string } {
  const counts = new Map<string | undefined, number>();
  for (const list of repeats.values()) for (const { under } of list) counts.set(under, (counts.get(under) ?? 0) + 1);
  const main = [...counts.entries()].reduce<[string | undefined, number] | undefined>(
    (most, entry) => (most === undefined || entry[1] > most[1] ? entry : most),
    undefined,
  )?.[0];
  const kept = new Map<number, Array<Record<string, number>>>();
  const left: string[] = [];
  for (const [size, list] of repeats) {
    kept.set(
      size,
      list.filter((repeat) => repeat.under === main).map((repeat) => repeat.cost),
    );
    const others = list.filter((repeat) => repeat.under !== main);
    for (const under of new Set(others.map((repeat) => repeat.under)))
      left.push(
        `${sizeName} = ${size}: ${others.filter((r) => r.under === under).length} of ${list.length} ${under ?? "without a condition told"}`,
      );
  }
  if (left.length === 0) return { kept };
  return {
    kept,
    apart: `not classed with the repeats measured ${main ?? "without a condition told"}, those measured otherwise: ${left.join("; ")}`,
  };
}
