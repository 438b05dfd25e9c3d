/** `20.19.0` → `[20, 19, 0]`; missing or `x` parts are `undefined`. */
function parts(version: string): (number | undefined)[] {
  return version
    .replace(/^[v=]+/, '')
    .split(/[.-]/)
    .slice(0, 3)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : undefined));
}

function compare(a: readonly number[], b: readonly (number | undefined)[]): number {
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** One comparator of a range (`>=22`, `<23`, `20.x`, `^20.19`, `~22.1`, `22`) against `version`. */
function satisfiesComparator(version: readonly number[], comparator: string): boolean | undefined {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(
    comparator,
  );
  if (!match) return undefined;
  const operator = match[1] ?? '';
  const bound = parts([match[2], match[3] ?? 'x', match[4] ?? 'x'].join('.'));
  const order = compare(version, bound);
  switch (operator) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '^':
      return order >= 0 && version[0] === (bound[0] ?? version[0]);
    case '~':
      return order >= 0 && version[0] === bound[0] && version[1] === (bound[1] ?? version[1]);
    default:
      // `22`, `22.x`, `=22.1.0`: every given part equal
      return bound.every((part, index) => part === undefined || part === version[index]);
  }
}

/**
 * Whether a Node.js `version` (`process.versions.node`) satisfies an `engines.node` range of the
 * common forms (`>=22`, `20.x || >=22`, `^20.19.0 || >=22.12`, `>=14 <23`). Returns `undefined`
 * for a range it cannot read, so that the caller can give it the benefit of the doubt.
 */
export function satisfiesNodeRange(range: string, version: string): boolean | undefined {
  const current = parts(version).map((part) => part ?? 0);
  let readable = true;
  for (const alternative of range.split('||')) {
    const comparators = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (comparators.length === 0) return true; // `""` or `*`-like: any version
    const results = comparators.map((comparator) => satisfiesComparator(current, comparator));
    if (results.includes(undefined)) readable = false;
    else if (results.every(Boolean)) return true;
  }
  return readable ? false : undefined;
}
