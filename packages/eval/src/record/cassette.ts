import { readFile } from 'node:fs/promises';

import type { LlmResponse } from '@adk/core';

import { EvalFileError } from '../errors';

/** One recorded model call: the canonical request, whether it streamed, and every response chunk. */
export interface CassetteEntry {
  /** The request as {@link canonicalRequest} gives it. */
  request: unknown;
  stream: boolean;
  /** Every response the model yielded, partial chunks included, in order. */
  responses: LlmResponse[];
}

/** Read a JSONL cassette (one {@link CassetteEntry} per line; blank lines ignored). */
export function parseCassette(text: string, file: string): CassetteEntry[] {
  const entries: CassetteEntry[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch (error) {
      throw new EvalFileError({
        file,
        issues: [{ path: `line ${index + 1}`, message: 'not valid JSON' }],
        cause: error,
      });
    }
    const candidate = entry as Partial<CassetteEntry>;
    if (
      typeof candidate !== 'object' ||
      candidate === null ||
      !Array.isArray(candidate.responses) ||
      !('request' in candidate)
    ) {
      throw new EvalFileError({
        file,
        issues: [
          { path: `line ${index + 1}`, message: 'expected {"request", "stream", "responses"}' },
        ],
      });
    }
    entries.push({
      request: candidate.request,
      stream: candidate.stream === true,
      responses: candidate.responses,
    });
  });
  return entries;
}

/** Read a cassette file. */
export async function loadCassette(path: string): Promise<CassetteEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EvalFileError({
      file: path,
      issues: [{ path: '', message: `cannot be read (${(error as Error).message})` }],
      cause: error,
    });
  }
  return parseCassette(text, path);
}
