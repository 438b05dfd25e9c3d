import { readFile } from 'node:fs/promises';

import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

import { AgentConfigError } from './agent-config-error';

/** A parsed config file that can tell the line of any path in it. */
export interface ConfigDocument {
  file: string;
  value: unknown;
  lineOf(path: ReadonlyArray<string | number>): number | undefined;
}

/** Read and parse a YAML config file. @throws AgentConfigError naming the line of a YAML error. */
export async function readConfigDocument(file: string): Promise<ConfigDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new AgentConfigError({ file, problem: 'cannot read the file.', cause });
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const error = document.errors[0];
  if (error) {
    throw new AgentConfigError({
      file,
      line: lineCounter.linePos(error.pos[0]).line,
      problem: `invalid YAML: ${error.message.split('\n')[0]}`,
      cause: error,
    });
  }
  return {
    file,
    value: document.toJS(),
    lineOf: (path) => lineOfPath(document, lineCounter, path),
  };
}

function lineOfPath(
  document: Document,
  lineCounter: LineCounter,
  path: ReadonlyArray<string | number>,
): number | undefined {
  // The deepest node of the path that exists: an unknown key's parent, a missing field's map.
  for (let length = path.length; length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true) as
      { range?: [number, number, number] } | undefined;
    if (node?.range) return lineCounter.linePos(node.range[0]).line;
    if (length > 0) {
      const parent = document.getIn(path.slice(0, length - 1), true);
      if (isMap(parent)) {
        const pair = parent.items.find(
          (item) => (item.key as { value?: unknown } | null)?.value === path[length - 1],
        );
        const key = pair?.key as { range?: [number, number, number] } | undefined;
        if (key?.range) return lineCounter.linePos(key.range[0]).line;
      } else if (isSeq(parent)) {
        continue;
      }
    }
  }
  return undefined;
}
