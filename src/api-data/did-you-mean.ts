// "Did you mean": the name nearest to a near miss, by edit distance. Whatever the input's
// length, it costs a few small tables at most: a name is compared only when its length is
// within reach (an edit distance is at least the difference in lengths), so an input of
// 500 KB is compared with none (the contract: no input, however large, holds anything up).

/**
 * The name nearest to `input`, if within a third of the input's length (at least 1 edit).
 * `distance` is for tests, which count the comparisons.
 */
export function nearest<N extends string>(input: string, names: readonly N[], distance = editDistance): N | undefined {
  const allowed = Math.max(1, Math.floor(input.length / 3));
  let best: N | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    if (Math.abs(input.length - name.length) > allowed) continue;
    const d = distance(input, name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return bestDistance <= allowed ? best : undefined;
}

/** Edit distance counting a swap of two neighbours as one edit ("slakc" → "slack"). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
