/**
 * Splits a byte stream of newline-delimited JSON (NDJSON, as Ollama's native API streams) into
 * parsed values. Lines may be split anywhere across chunks; blank lines are skipped. A line that is
 * not JSON is passed to `onMalformed`, which may throw (the default rethrows the parse error).
 */
export async function* parseJsonLines(
  body: AsyncIterable<Uint8Array | string>,
  options: { onMalformed?: (line: string, error: unknown) => void } = {},
): AsyncGenerator<unknown, void> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  const parse = (line: string): { ok: true; value: unknown } | { ok: false } => {
    const trimmed = line.trim();
    if (trimmed === '') return { ok: false };
    try {
      return { ok: true, value: JSON.parse(trimmed) };
    } catch (error) {
      if (options.onMalformed) options.onMalformed(trimmed, error);
      else throw error;
      return { ok: false };
    }
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const result = parse(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
      if (result.ok) yield result.value;
      newline = buffer.indexOf('\n');
    }
  }
  buffer += decoder.decode();
  const last = parse(buffer);
  if (last.ok) yield last.value;
}
