import { fakeTokenCount, type EmbeddingRoute } from './embedding-route';

const PATH = /^\/(?:v1|openai\/v1|openai\/deployments\/([^/]+))\/embeddings$/;

/** OpenAI's limit on inputs in one `/embeddings` call. */
export const OPENAI_EMBED_BATCH_LIMIT = 2048;

/** Little-endian float32 bytes in base64, as OpenAI sends `encoding_format: "base64"`. */
function base64(vector: number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}

/**
 * `POST /v1/embeddings` (`{ model, input: string | string[], dimensions?, encoding_format? }` ->
 * `{ object: 'list', data: [{ object: 'embedding', index, embedding }], model, usage }`), floats
 * or base64 float32 as the request asks (the official SDK asks for base64).
 */
export function openaiEmbeddingRoute(path: string, body: unknown): EmbeddingRoute | undefined {
  const match = PATH.exec(path);
  if (!match) return undefined;
  const record = (body ?? {}) as {
    model?: unknown;
    input?: unknown;
    dimensions?: unknown;
    encoding_format?: unknown;
  };
  const model = typeof record.model === 'string' ? record.model : (match[1] ?? '');
  const texts = typeof record.input === 'string' ? [record.input] : record.input;
  let invalid: string | undefined;
  if (!model) invalid = 'you must provide a model parameter';
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string'))
    invalid ??= "'input' must be a non-empty string or array of strings";
  else if (texts.length > OPENAI_EMBED_BATCH_LIMIT)
    invalid ??= `'input' must have at most ${OPENAI_EMBED_BATCH_LIMIT} items`;
  else if (texts.some((t) => (t as string).length === 0))
    invalid ??= "'input' cannot contain an empty string";
  const dimensions = record.dimensions;
  if (dimensions !== undefined && (typeof dimensions !== 'number' || dimensions < 1))
    invalid ??= "'dimensions' must be a positive integer";
  const format = record.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64')
    invalid ??= "'encoding_format' must be 'float' or 'base64'";
  const strings = Array.isArray(texts) ? (texts as string[]) : [];
  return {
    model,
    inputs: strings.map((text) => ({ text, dimensions: dimensions as number | undefined })),
    invalid,
    answer: (vectors) => {
      const tokens = strings.reduce((sum, text) => sum + fakeTokenCount(text), 0);
      return {
        object: 'list',
        data: vectors.map((vector, index) => ({
          object: 'embedding',
          index,
          embedding: format === 'base64' ? base64(vector) : vector,
        })),
        model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    },
  };
}
