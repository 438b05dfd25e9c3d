import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { EvalFileError } from '../errors';
import { EVAL_SET_SPEC, evalSetSchema, type EvalSet, type Invocation } from '../schema';
import { toWireKeys } from '../schema/key-spec';
import { parseJsonText, parseModel } from './parse-model';

/** Suffix of eval set files (`<eval_set_id>.evalset.json`). */
export const EVAL_SET_FILE_SUFFIX = '.evalset.json';

interface LegacyItem {
  query?: unknown;
  reference?: unknown;
  expected_tool_use?: Array<{ tool_name?: unknown; tool_input?: unknown }>;
  expected_intermediate_agent_responses?: Array<{ author?: unknown; text?: unknown }>;
}

function legacyInvocation(item: LegacyItem, path: string, file: string): Invocation {
  if (typeof item?.query !== 'string') {
    throw new EvalFileError({
      file,
      issues: [{ path: `${path}.query`, message: 'expected a string' }],
    });
  }
  const toolUses = (item.expected_tool_use ?? []).map((use, i) => {
    if (typeof use?.tool_name !== 'string') {
      throw new EvalFileError({
        file,
        issues: [
          { path: `${path}.expected_tool_use[${i}].tool_name`, message: 'expected a string' },
        ],
      });
    }
    return { name: use.tool_name, args: (use.tool_input ?? {}) as Record<string, unknown> };
  });
  const intermediate = (item.expected_intermediate_agent_responses ?? []).map(
    (r) => [String(r.author), [{ text: String(r.text) }]] as [string, { text: string }[]],
  );
  return {
    invocationId: randomUUID(),
    userContent: { role: 'user', parts: [{ text: item.query }] },
    finalResponse: {
      role: 'model',
      parts: [{ text: typeof item.reference === 'string' ? item.reference : '' }],
    },
    intermediateData: { toolUses, intermediateResponses: intermediate },
    creationTimestamp: Date.now() / 1000,
  };
}

function sessionInputOf(initial: unknown): EvalSet['evalCases'][number]['sessionInput'] {
  if (typeof initial !== 'object' || initial === null) return undefined;
  const session = initial as { app_name?: unknown; user_id?: unknown; state?: unknown };
  if (typeof session.app_name !== 'string' || typeof session.user_id !== 'string') return undefined;
  return {
    appName: session.app_name,
    userId: session.user_id,
    state: (session.state ?? {}) as Record<string, unknown>,
  };
}

/**
 * Convert Python ADK's older list formats to an {@link EvalSet}: a `*.test.json` list of turns
 * (`query`, `expected_tool_use` with `tool_name`/`tool_input`, `reference`) is one case; a list of
 * `{name, data, initial_session}` objects is one case each.
 */
export function convertLegacyEvalData(
  data: unknown[],
  options: { file: string; evalSetId?: string; initialSession?: unknown },
): EvalSet {
  const now = Date.now() / 1000;
  const isCaseList = data.every(
    (item) =>
      typeof item === 'object' && item !== null && 'data' in item && Array.isArray(item.data),
  );
  const cases = isCaseList
    ? data.map((raw, c) => {
        const item = raw as { name?: unknown; data: LegacyItem[]; initial_session?: unknown };
        return {
          evalId: typeof item.name === 'string' ? item.name : `case_${c}`,
          conversation: item.data.map((turn, i) =>
            legacyInvocation(turn, `[${c}].data[${i}]`, options.file),
          ),
          sessionInput: sessionInputOf(item.initial_session ?? options.initialSession),
          creationTimestamp: now,
        };
      })
    : [
        {
          evalId: basename(options.file),
          conversation: (data as LegacyItem[]).map((turn, i) =>
            legacyInvocation(turn, `[${i}]`, options.file),
          ),
          sessionInput: sessionInputOf(options.initialSession),
          creationTimestamp: now,
        },
      ];
  return {
    evalSetId: options.evalSetId ?? randomUUID(),
    evalCases: cases.map(({ sessionInput, ...rest }) =>
      sessionInput ? { ...rest, sessionInput } : rest,
    ),
    creationTimestamp: now,
  };
}

/**
 * Read an eval set from parsed JSON: an `EvalSet` object in either spelling, or one of the older
 * list formats (see {@link convertLegacyEvalData}).
 */
export function parseEvalSet(
  json: unknown,
  file = '<eval set>',
  initialSession?: unknown,
): EvalSet {
  if (Array.isArray(json)) return convertLegacyEvalData(json, { file, initialSession });
  return parseModel(evalSetSchema, EVAL_SET_SPEC, json, file);
}

/**
 * Load an eval set file (`*.evalset.json`, or an older `*.test.json`, whose session comes from an
 * `initial.session.json` beside it when there is one).
 *
 * @throws EvalFileError naming the bad field's path.
 */
export async function loadEvalSetFile(path: string): Promise<EvalSet> {
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
  const json = parseJsonText(text, path);
  let initialSession: unknown;
  const sessionFile = join(dirname(path), 'initial.session.json');
  if (Array.isArray(json) && existsSync(sessionFile)) {
    initialSession = parseJsonText(await readFile(sessionFile, 'utf8'), sessionFile);
  }
  return parseEvalSet(json, path, initialSession);
}

/**
 * An eval set in Python's spelling: `snake` as its files are (and as Python's loader reads),
 * `alias` as its HTTP server answers.
 */
export function serializeEvalSet(evalSet: EvalSet, style: 'snake' | 'alias' = 'snake'): unknown {
  return toWireKeys(evalSet, EVAL_SET_SPEC, style);
}

/** Write an eval set file that Python ADK loads unchanged. */
export async function writeEvalSetFile(path: string, evalSet: EvalSet): Promise<void> {
  await writeFile(path, `${JSON.stringify(serializeEvalSet(evalSet, 'snake'), null, 2)}\n`);
}
