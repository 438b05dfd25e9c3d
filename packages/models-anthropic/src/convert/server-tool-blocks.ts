import type { Citation, GroundingChunk, LlmResponse, Part } from '@adk/core';

/**
 * A content block of an answer in its wire shape, server tool blocks included: `server_tool_use`
 * (the model runs `web_search` or `code_execution`), `web_search_tool_result`,
 * `code_execution_tool_result` / `bash_code_execution_tool_result`, and text blocks carrying
 * `citations`.
 */
export interface WireBlock {
  type: string;
  [key: string]: unknown;
}

interface WireCitation {
  type?: string;
  url?: string;
  title?: string | null;
  cited_text?: string;
}

/**
 * Reads the server tool side of an answer's blocks, in order: web searches become the answer's
 * `groundingMetadata` (queries and result pages), citations of text blocks its
 * `citationMetadata` (offsets counted over the answer text), code execution `executableCode` and
 * `codeExecutionResult` parts.
 */
export class ServerToolReader {
  private readonly queries: string[] = [];
  private readonly chunks: GroundingChunk[] = [];
  private readonly citations: Citation[] = [];
  private textLength = 0;

  /** Whether this reader handles blocks of `type` (else the caller converts the block). */
  static handles(type: string): boolean {
    return (
      type === 'server_tool_use' ||
      type === 'web_search_tool_result' ||
      type === 'code_execution_tool_result' ||
      type === 'bash_code_execution_tool_result'
    );
  }

  /** The part standing for a server tool block, if any (recording what it carries). */
  read(block: WireBlock): Part | undefined {
    if (block.type === 'server_tool_use') {
      const input = (block.input ?? {}) as Record<string, unknown>;
      if (block.name === 'web_search' && typeof input.query === 'string') {
        this.queries.push(input.query);
        return undefined;
      }
      if (typeof input.code === 'string')
        return { executableCode: { language: 'PYTHON', code: input.code } };
      if (typeof input.command === 'string')
        return { executableCode: { language: 'BASH', code: input.command } };
      return undefined;
    }
    if (block.type === 'web_search_tool_result') {
      if (!Array.isArray(block.content)) return undefined;
      for (const result of block.content as Array<Record<string, unknown>>) {
        if (typeof result.url !== 'string') continue;
        const web: NonNullable<GroundingChunk['web']> = { uri: result.url };
        if (typeof result.title === 'string') web.title = result.title;
        this.chunks.push({ web });
      }
      return undefined;
    }
    // code_execution_tool_result, bash_code_execution_tool_result
    const content = (block.content ?? {}) as Record<string, unknown>;
    const stdout = typeof content.stdout === 'string' ? content.stdout : '';
    const stderr = typeof content.stderr === 'string' ? content.stderr : '';
    const failed =
      (typeof content.return_code === 'number' && content.return_code !== 0) ||
      typeof content.error_code === 'string';
    return {
      codeExecutionResult: {
        outcome: failed ? 'OUTCOME_FAILED' : 'OUTCOME_OK',
        output:
          stdout + stderr || (typeof content.error_code === 'string' ? content.error_code : ''),
      },
    };
  }

  /** Records the citations of an answer text block; call for every answer text block, in order. */
  text(text: string, citations: readonly WireCitation[] | undefined): void {
    const start = this.textLength;
    this.textLength += text.length;
    for (const citation of citations ?? []) {
      const entry: Citation = { startIndex: start, endIndex: this.textLength };
      if (citation.url) entry.uri = citation.url;
      if (citation.title) entry.title = citation.title;
      if (citation.cited_text) entry.citedText = citation.cited_text;
      this.citations.push(entry);
    }
  }

  /** Puts the grounding and citation metadata read so far on `response`. */
  apply(response: LlmResponse): void {
    if (this.queries.length > 0 || this.chunks.length > 0) {
      response.groundingMetadata = {};
      if (this.queries.length > 0) response.groundingMetadata.webSearchQueries = this.queries;
      if (this.chunks.length > 0) response.groundingMetadata.groundingChunks = this.chunks;
    }
    if (this.citations.length > 0) response.citationMetadata = { citations: this.citations };
  }
}
