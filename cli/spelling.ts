/** What a person types wrong: switch spellings, and the nearest name to a mistyped one. */

/** How a switch may be spelt in the environment; anything else is refused, not read as off. */
export const BOOLEAN_SPELLINGS: Record<string, boolean> = {
  on: true,
  off: false,
  true: true,
  false: false,
  "1": true,
  "0": false,
  yes: true,
  no: false,
};

/** node's "Unknown option '--tgas'" with the nearest known option, if one is close. */
export function withSuggestion(message: string, known: string[], command: string): string {
  const unknown = /Unknown option '--([^']+)'/.exec(message)?.[1];
  if (!unknown) return message;
  const nearest = known
    .map((name) => ({ name, distance: editDistance(unknown, name) }))
    .sort((a, b) => a.distance - b.distance)[0];
  const hint = nearest && nearest.distance <= 2 ? `; did you mean --${nearest.name}?` : `; see sxd ${command} --help`;
  return `unknown option --${unknown}${hint}`;
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] as number) + 1, (current[j - 1] as number) + 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
