/**
 * The small copy of a vector that PostgreSQL's exact search reads first: int8 scalar
 * quantisation with its scale and the length of what the rounding lost, so that every
 * approximate score comes with a proven error bound.
 *
 * Layout (little-endian): float32 scale `s`, float32 residual norm `r`, then one int8 code per
 * dimension. The vector `v` is `s·q + e` with `‖e‖ ≤ r`, hence for any query `x`:
 * `|v·x − s·(q·x)| ≤ r·‖x‖` (Cauchy–Schwarz).
 */
export const SKETCH_HEADER_BYTES = 8;

/** Relative slack on the stored residual norm, so that its float32 rounding never lowers it. */
const NORM_SLACK = 1 + 1e-6;

/** The sketch of a vector (its float32 values are the ones the exact search compares). */
export function toVectorSketch(vector: ArrayLike<number>): Uint8Array {
  const floats = Float32Array.from(vector);
  let maxAbs = 0;
  for (const x of floats) maxAbs = Math.max(maxAbs, Math.abs(x));
  const scale = Math.fround(maxAbs / 127);
  const bytes = new Uint8Array(SKETCH_HEADER_BYTES + floats.length);
  const codes = new Int8Array(bytes.buffer, SKETCH_HEADER_BYTES, floats.length);
  let residual = 0;
  for (let i = 0; i < floats.length; i++) {
    const code = scale === 0 ? 0 : Math.max(-127, Math.min(127, Math.round(floats[i]! / scale)));
    codes[i] = code;
    const lost = floats[i]! - scale * code;
    residual += lost * lost;
  }
  const view = new DataView(bytes.buffer);
  view.setFloat32(0, scale, true);
  view.setFloat32(4, Math.sqrt(residual) * NORM_SLACK, true);
  return bytes;
}

/** An approximate score and its error bound: the exact score is within `estimate ± bound`. */
export interface SketchScore {
  estimate: number;
  bound: number;
}

/**
 * Scores a stored sketch against `query` (`queryNorm` = its Euclidean length); undefined when
 * the sketch does not have the query's length.
 */
export function scoreSketch(
  sketch: Uint8Array,
  query: Float32Array,
  queryNorm: number,
): SketchScore | undefined {
  if (sketch.byteLength !== SKETCH_HEADER_BYTES + query.length) return undefined;
  const view = new DataView(sketch.buffer, sketch.byteOffset, SKETCH_HEADER_BYTES);
  const codes = new Int8Array(sketch.buffer, sketch.byteOffset + SKETCH_HEADER_BYTES, query.length);
  let sum = 0;
  for (let i = 0; i < codes.length; i++) sum += codes[i]! * query[i]!;
  return {
    estimate: view.getFloat32(0, true) * sum,
    bound: view.getFloat32(4, true) * queryNorm,
  };
}
