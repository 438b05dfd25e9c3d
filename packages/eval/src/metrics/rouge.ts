import { porterStem } from './porter-stemmer';

/** Precision, recall and F-measure of a ROUGE score. */
export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

const NON_ALPHANUMERIC = /[^a-z0-9]+/g;
const VALID_TOKEN = /^[a-z0-9]+$/;
const LETTER = /\p{L}/u;
const LATIN = /\p{Script=Latin}/u;

/**
 * True when more than half of the letters are Latin script (or there are none): Python ADK only
 * stems such text, the Porter stemmer being for English.
 */
export function isLatinScript(text: string): boolean {
  let letters = 0;
  let latin = 0;
  for (const char of text) {
    if (!LETTER.test(char)) continue;
    letters += 1;
    if (LATIN.test(char)) latin += 1;
  }
  return letters === 0 || latin / letters > 0.5;
}

/**
 * The tokeniser of Google's `rouge_score` package, which Python ADK uses: lowercase, every run of
 * characters other than `a-z0-9` becomes a space, split, stem tokens longer than three characters
 * with NLTK's Porter stemmer when `stem` is set, keep non-empty tokens.
 */
export function rougeTokenize(text: string, stem: boolean): string[] {
  const tokens = text.toLowerCase().replace(NON_ALPHANUMERIC, ' ').split(/\s+/);
  return tokens
    .map((token) => (stem && token.length > 3 ? porterStem(token) : token))
    .filter((token) => VALID_TOKEN.test(token));
}

function counts(tokens: readonly string[]): Map<string, number> {
  const map = new Map<string, number>();
  for (const token of tokens) map.set(token, (map.get(token) ?? 0) + 1);
  return map;
}

/**
 * ROUGE-1 of `candidate` against `reference`: unigram overlap (clipped counts), precision over
 * the candidate, recall over the reference, and their harmonic mean. Stems only when both texts
 * are mostly Latin script, as Python ADK does.
 */
export function rouge1(candidate: string, reference: string): RougeScore {
  const stem = isLatinScript(candidate) && isLatinScript(reference);
  const target = counts(rougeTokenize(reference, stem));
  const prediction = counts(rougeTokenize(candidate, stem));
  let overlap = 0;
  for (const [token, count] of target) overlap += Math.min(count, prediction.get(token) ?? 0);
  const targetTotal = [...target.values()].reduce((a, b) => a + b, 0);
  const predictionTotal = [...prediction.values()].reduce((a, b) => a + b, 0);
  const precision = overlap / Math.max(predictionTotal, 1);
  const recall = overlap / Math.max(targetTotal, 1);
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}
