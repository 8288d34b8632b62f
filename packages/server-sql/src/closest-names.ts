/** Edit distance between two short names, case-insensitive. */
function editDistance(left: string, right: string): number {
  const a = left.toLowerCase();
  const b = right.toLowerCase();
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The candidates nearest to a misspelt name, best first: those containing it
 * (or contained in it) before those a few edits away.
 */
export function closestNames(name: string, candidates: readonly string[], count = 5): string[] {
  const wanted = name.toLowerCase();
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = lower.includes(wanted) || wanted.includes(lower);
      return { candidate, score: contains ? 0 : editDistance(wanted, lower) };
    })
    .filter(({ score }) => score <= Math.max(2, Math.floor(wanted.length / 2)))
    .sort((left, right) => left.score - right.score || left.candidate.localeCompare(right.candidate))
    .slice(0, count)
    .map(({ candidate }) => candidate);
}
