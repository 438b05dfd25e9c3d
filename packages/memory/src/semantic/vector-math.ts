/** `vector` scaled to length 1 (a zero vector stays zero). */
export function normalize(vector: readonly number[]): number[] {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm === 0 ? [...vector] : vector.map((x) => x / norm);
}

/** The dot product (the cosine similarity of unit vectors). Lengths must match. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * Keeps the `limit` best items seen so far, best first, in O(limit) memory whatever the number
 * of items offered: what an exact search over many vectors needs.
 */
export class TopK<T> {
  readonly #limit: number;
  readonly #items: { item: T; score: number }[] = [];

  constructor(limit: number) {
    this.#limit = Math.max(0, limit);
  }

  /** Whether `score` would enter the list (cheap check before building the item). */
  accepts(score: number): boolean {
    return (
      this.#limit > 0 &&
      (this.#items.length < this.#limit || score > this.#items[this.#items.length - 1]!.score)
    );
  }

  offer(item: T, score: number): void {
    if (!this.accepts(score)) return;
    let at = this.#items.length;
    while (at > 0 && this.#items[at - 1]!.score < score) at--;
    this.#items.splice(at, 0, { item, score });
    if (this.#items.length > this.#limit) this.#items.pop();
  }

  /** Best first. */
  result(): { item: T; score: number }[] {
    return [...this.#items];
  }
}
