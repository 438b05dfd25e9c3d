/** Attributes and listeners of {@link h}: `on*` functions become listeners, others attributes. */
export type Props = Record<string, string | number | boolean | null | undefined | EventListener>;

/** A child: a node, a text, or nothing. */
export type Child = Node | string | null | undefined | false;

/**
 * Create an element: `h('button', { class: 'x', onclick }, 'Send')`. Text children are text nodes
 * (never parsed as HTML), so server data cannot inject markup.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/** The element with this id (the page's fixed skeleton, see index.html). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** Pretty JSON in a `<pre>`. */
export function jsonBlock(value: unknown, className = 'json'): HTMLPreElement {
  return h('pre', { class: className }, JSON.stringify(value ?? null, null, 2));
}

/** Save `data` as a download named `filename`. */
export function download(filename: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const link = h('a', { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
