import type { EmbeddingInput, EmbeddingRoute } from './embedding-route';

const PATH =
  /^(?:\/v1beta|\/v1(?:\/projects\/[^/]+\/locations\/[^/]+)?\/publishers\/google)\/models\/([^/:]+):(embedContent|batchEmbedContents)$/;

/** The Gemini API's limit on requests in one `batchEmbedContents` call. */
export const GEMINI_EMBED_BATCH_LIMIT = 100;

interface EmbedContentRequest {
  model?: unknown;
  content?: { parts?: { text?: unknown }[] };
  outputDimensionality?: unknown;
  taskType?: unknown;
}

const TASK_TYPES = new Set([
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
]);

function input(request: EmbedContentRequest): EmbeddingInput | string {
  const parts = request.content?.parts;
  if (!Array.isArray(parts) || parts.length === 0) return '`content.parts` must not be empty';
  if (request.taskType !== undefined && !TASK_TYPES.has(String(request.taskType)))
    return `Invalid value at 'task_type' (${String(request.taskType)})`;
  const dimensions = request.outputDimensionality;
  if (dimensions !== undefined && (typeof dimensions !== 'number' || dimensions < 1))
    return 'outputDimensionality must be a positive integer';
  return {
    text: parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join(' '),
    dimensions: dimensions as number | undefined,
  };
}

/**
 * `models/{model}:embedContent` (`{ content, taskType?, outputDimensionality? }` ->
 * `{ embedding: { values } }`) and `models/{model}:batchEmbedContents` (`{ requests: [...] }`,
 * each naming `models/{model}`, at most 100 -> `{ embeddings: [{ values }] }`), as the Gemini API
 * answers them (it reports no token usage).
 */
export function geminiEmbeddingRoute(path: string, body: unknown): EmbeddingRoute | undefined {
  const match = PATH.exec(path);
  if (!match) return undefined;
  const model = decodeURIComponent(match[1]!);
  const record = (body ?? {}) as EmbedContentRequest & { requests?: unknown };
  if (match[2] === 'embedContent') {
    const one = input(record);
    return {
      model,
      inputs: typeof one === 'string' ? [] : [one],
      invalid: typeof one === 'string' ? one : undefined,
      answer: (vectors) => ({ embedding: { values: vectors[0] } }),
    };
  }
  const requests = Array.isArray(record.requests) ? (record.requests as EmbedContentRequest[]) : [];
  let invalid: string | undefined;
  if (requests.length === 0) invalid = '`requests` must not be empty';
  else if (requests.length > GEMINI_EMBED_BATCH_LIMIT)
    invalid = `at most ${GEMINI_EMBED_BATCH_LIMIT} requests can be in one batch`;
  const inputs: EmbeddingInput[] = [];
  for (const request of requests) {
    if (request.model !== `models/${model}`)
      invalid ??= `Model names should match: requests name ${String(request.model)}, the URL models/${model}`;
    const one = input(request);
    if (typeof one === 'string') invalid ??= one;
    else inputs.push(one);
  }
  return {
    model,
    inputs,
    invalid,
    answer: (vectors) => ({ embeddings: vectors.map((values) => ({ values })) }),
  };
}
