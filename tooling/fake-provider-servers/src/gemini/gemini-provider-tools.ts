import type { FakeReply } from '../types';

/**
 * The `groundingMetadata` of a candidate whose answer came from a Google Search (the reply's
 * `webSearch`): the queries, one chunk per page, one support spanning the whole answer text and
 * citing every page, and the search suggestions HTML; `undefined` without a search.
 */
export function geminiGroundingMetadata(reply: FakeReply): Record<string, unknown> | undefined {
  const search = reply.webSearch;
  if (!search) return undefined;
  const text = reply.text ?? '';
  return {
    webSearchQueries: search.queries,
    searchEntryPoint: {
      renderedContent: `<div class="container">${search.queries.map((q) => `<a class="chip">${q}</a>`).join('')}</div>`,
    },
    groundingChunks: search.sources.map((source) => ({
      web: { uri: source.url, title: source.title },
    })),
    groundingSupports: [
      {
        segment: { startIndex: 0, endIndex: Buffer.byteLength(text, 'utf8'), text },
        groundingChunkIndices: search.sources.map((_, index) => index),
      },
    ],
  };
}

/** The `executableCode` and `codeExecutionResult` parts of the reply's `codeExecution`. */
export function geminiCodeExecutionParts(reply: FakeReply): Array<Record<string, unknown>> {
  const run = reply.codeExecution;
  if (!run) return [];
  return [
    { executableCode: { language: 'PYTHON', code: run.code } },
    {
      codeExecutionResult: {
        outcome: run.ok === false ? 'OUTCOME_FAILED' : 'OUTCOME_OK',
        output: run.output,
      },
    },
  ];
}
