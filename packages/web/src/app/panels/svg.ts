const SVG = 'http://www.w3.org/2000/svg';

/** Create an SVG element with its attributes and, optionally, its text. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Roughly the width of one character of a 12 px label, in pixels. */
const CHAR_WIDTH = 7;
/** How much a label may be narrowed to fit its box before it is cut. */
const MOST_SQUEEZE = 1.7;

/**
 * The centred label of a node `width` pixels wide: the whole name when it fits, narrowed to the
 * box when it is up to 1.7 times too long (`textLength`), and cut with "…" only beyond that. The
 * node's `<title>` carries the whole name either way.
 */
export function nodeLabel(name: string, width: number, height: number): SVGTextElement {
  const room = width - 12;
  const most = Math.floor((room * MOST_SQUEEZE) / CHAR_WIDTH);
  const text = name.length > most ? `${name.slice(0, most - 1)}…` : name;
  const label = svg(
    'text',
    { x: width / 2, y: height / 2 + 4, 'text-anchor': 'middle', class: 'label' },
    text,
  );
  if (text.length * CHAR_WIDTH > room) {
    label.setAttribute('textLength', String(room));
    label.setAttribute('lengthAdjust', 'spacingAndGlyphs');
  }
  return label;
}

/** A route as people read it: the workflow's default route is "default", not its sentinel. */
export function routeLabel(route: string): string {
  return route === '__DEFAULT__' ? 'default' : route;
}
