/**
 * The relative paths a markdown text points to: inline links and images (`[x](path)`), reference
 * definitions (`[x]: path`), autolinks (`<path>`) and code spans that look like a relative file
 * path (`` `reference/forms.md` ``). URLs with a scheme, absolute paths and anchors are left out;
 * `#fragment` and `?query` are dropped and `%xx` decoded. The caller checks each path exists inside
 * the skill.
 */
export function linkedPaths(markdown: string): string[] {
  const found = new Set<string>();
  const add = (raw: string | undefined): void => {
    const path = cleanTarget(raw);
    if (path !== undefined) found.add(path);
  };
  for (const match of markdown.matchAll(/!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)) {
    add(match[1]);
  }
  for (const match of markdown.matchAll(/^\s{0,3}\[[^\]\n]+\]:\s*<?([^\s>]+)>?/gm)) add(match[1]);
  for (const match of markdown.matchAll(/<([^<>\s:]+\.[A-Za-z0-9]+)>/g)) add(match[1]);
  for (const match of markdown.matchAll(/`([^`\s]+)`/g)) {
    const candidate = match[1]!;
    if (
      /^[\w.-]+(\/[\w.-]+)*\/?$/.test(candidate) &&
      (candidate.includes('/') || /\.\w{1,5}$/.test(candidate))
    ) {
      add(candidate);
    }
  }
  return [...found];
}

function cleanTarget(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('/') || raw.startsWith('#'))
    return undefined;
  const withoutAnchor = raw.split('#')[0]!.split('?')[0]!;
  if (withoutAnchor === '') return undefined;
  try {
    return decodeURIComponent(withoutAnchor).replace(/^\.\//, '');
  } catch {
    return withoutAnchor.replace(/^\.\//, '');
  }
}
