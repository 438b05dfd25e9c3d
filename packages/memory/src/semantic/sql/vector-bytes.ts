/** A vector as float32 little-endian bytes (how SQLite stores it and sqlite-vec reads it). */
export function toFloat32Bytes(vector: readonly number[]): Uint8Array {
  const floats = Float32Array.from(vector);
  return new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength);
}

/** The floats of stored bytes, without copying when they are aligned. */
export function fromFloat32Bytes(bytes: Uint8Array): Float32Array {
  if (bytes.byteOffset % 4 === 0)
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  return new Float32Array(bytes.slice().buffer);
}
