/** One step of a JSON path: an object member name or an array index. */
export type JsonPathSegment = string | number;

const NAME_START = /[A-Za-z_\u0080-\uffff]/;
const NAME_CHAR = /[A-Za-z0-9_\u0080-\uffff]/;
const ESCAPES: Record<string, string> = {
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  '/': '/',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/**
 * Parses the singular JSON paths (RFC 9535) that Gemini uses in `partialArgs`: `$` followed by
 * `.name`, `['name']` / `["name"]` and `[index]` segments, e.g. `$.stops[0].city` or
 * `$['a b']`. Returns undefined for anything else (wildcards, slices, filters, negative indexes),
 * which cannot name one argument.
 */
export function parseJsonPath(path: string): JsonPathSegment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const segments: JsonPathSegment[] = [];
  let at = 1;
  while (at < path.length) {
    const char = path[at];
    if (char === '.') {
      let end = at + 1;
      if (!NAME_START.test(path[end] ?? '')) return undefined;
      while (end < path.length && NAME_CHAR.test(path[end]!)) end++;
      segments.push(path.slice(at + 1, end));
      at = end;
    } else if (char === '[') {
      const quote = path[at + 1];
      if (quote === "'" || quote === '"') {
        const parsed = readQuoted(path, at + 2, quote);
        if (!parsed || path[parsed.end] !== ']') return undefined;
        segments.push(parsed.value);
        at = parsed.end + 1;
      } else {
        const match = /^(0|[1-9][0-9]*)\]/.exec(path.slice(at + 1));
        if (!match) return undefined;
        const index = Number(match[1]);
        if (!Number.isSafeInteger(index)) return undefined;
        segments.push(index);
        at += match[0].length + 1;
      }
    } else {
      return undefined;
    }
  }
  return segments;
}

function readQuoted(
  path: string,
  start: number,
  quote: string,
): { value: string; end: number } | undefined {
  let value = '';
  let at = start;
  while (at < path.length) {
    const char = path[at]!;
    if (char === quote) return { value, end: at + 1 };
    if (char === '\\') {
      const next = path[at + 1] ?? '';
      if (next === 'u') {
        const hex = path.slice(at + 2, at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
        value += String.fromCharCode(parseInt(hex, 16));
        at += 6;
        continue;
      }
      const escaped = ESCAPES[next];
      if (escaped === undefined) return undefined;
      value += escaped;
      at += 2;
      continue;
    }
    value += char;
    at++;
  }
  return undefined;
}

/** Formats a path for messages: `$.a[0]['b c']`. */
export function formatJsonPath(segments: readonly JsonPathSegment[]): string {
  let out = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
