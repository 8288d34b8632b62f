/** Edit distance between two short names (options, flags): how many letters to add, drop or change. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The valid name a misspelt one most likely meant, when one is close enough to suggest. */
export function closestName(given: string, valid: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of valid) {
    const distance = editDistance(given, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  // Suggest only what a typo could explain: about a third of the name at most.
  return best !== undefined && bestDistance <= Math.max(2, Math.ceil(given.length / 3)) ? best : undefined;
}
