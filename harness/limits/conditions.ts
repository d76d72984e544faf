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
 * out of the points, and `apart` says which and why; so is a size with no more than half its
 * repeats left, whose spread they could not show.
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
  const tooFew: number[] = [];
  for (const [size, list] of repeats) {
    const alike = list.filter((repeat) => repeat.under === main).map((repeat) => repeat.cost);
    // A size whose repeats were half or more measured otherwise has too few left to show its spread.
    const enough = alike.length * 2 > list.length;
    kept.set(size, enough ? alike : []);
    if (!enough && alike.length > 0) tooFew.push(size);
    const others = list.filter((repeat) => repeat.under !== main);
    for (const under of new Set(others.map((repeat) => repeat.under)))
      left.push(
        `${sizeName} = ${size}: ${others.filter((r) => r.under === under).length} of ${list.length} ${under ?? "without a condition told"}`,
      );
  }
  if (left.length === 0) return { kept };
  const unclassed =
    tooFew.length === 0
      ? ""
      : `; ${sizeName} = ${tooFew.join(", ")} left out: no more than half its repeats measured alike, too few to show a spread`;
  return {
    kept,
    apart: `not classed with the repeats measured ${main ?? "without a condition told"}, those measured otherwise: ${left.join("; ")}${unclassed}`,
  };
}
