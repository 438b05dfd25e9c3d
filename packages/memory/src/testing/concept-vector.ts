import { CONCEPT_GROUPS, STOP_WORDS } from './concept-vocabulary';

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const GROUP_OF = new Map<string, number>();
CONCEPT_GROUPS.forEach((group, index) => group.forEach((word) => GROUP_OF.set(word, index)));

/** FNV-1a over the UTF-16 code units: a stable, dependency-free word hash. */
function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    h ^= word.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A deterministic, unit-length vector for `text` in which related phrases are close: each
 * meaningful word (stop words dropped, lower-cased) adds weight to its own hashed dimension, and
 * a word of a synonym group ({@link CONCEPT_GROUPS}) adds more to the group's dimension. So
 * "building a billing service" and "my payments project" share two concepts and no word, and
 * their cosine similarity is high; unrelated phrases are near 0. Text without meaningful words
 * gets a zero vector.
 *
 * The fake Gemini and OpenAI embedding endpoints answer with these vectors, and
 * {@link ConceptEmbeddingModel} computes them in process.
 *
 * @param dimensions at least 64 (the first dimensions hold the concept groups).
 */
export function conceptVector(text: string, dimensions = 256): number[] {
  const size = Math.max(64, Math.floor(dimensions));
  const vector = new Array<number>(size).fill(0);
  const groups = CONCEPT_GROUPS.length;
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    const group = GROUP_OF.get(word);
    if (group !== undefined) vector[group]! += 2;
    const own = groups + (hash(word) % (size - groups));
    vector[own]! += 1;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((x) => x / norm);
}
