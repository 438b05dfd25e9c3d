import type { Part } from '@adk/core';

/** Provider-run code tools: Anthropic and Google `code_execution`, OpenAI `code_interpreter`. */
export const CODE_EXECUTION_TOOLS: ReadonlySet<string> = new Set([
  'code_execution',
  'code_interpreter',
]);

/** An `executableCode` part from a provider-executed code tool call's input (`{ code, language? }`). */
export function executableCodePart(input: Record<string, unknown> | undefined): Part | undefined {
  const code = input?.code;
  if (typeof code !== 'string') return undefined;
  const language = typeof input?.language === 'string' ? input.language : 'PYTHON';
  return { executableCode: { language, code } };
}

/**
 * A `codeExecutionResult` part from a provider-executed code tool result: Google's `{ outcome,
 * output }` as it is; Anthropic's `{ stdout, stderr, return_code }` as `OUTCOME_OK` (return code 0)
 * or `OUTCOME_FAILED` with the standard error; OpenAI's `{ outputs: [{ type: 'logs', logs }] }` as
 * its logs. A result of an error type (`..._error`) is `OUTCOME_FAILED`.
 */
export function codeExecutionResultPart(result: unknown): Part | undefined {
  if (result === null || typeof result !== 'object') return undefined;
  const value = result as Record<string, unknown>;
  if (typeof value.outcome === 'string') {
    return {
      codeExecutionResult: {
        outcome: value.outcome,
        ...(typeof value.output === 'string' ? { output: value.output } : {}),
      },
    };
  }
  const failed =
    (typeof value.type === 'string' && value.type.endsWith('_error')) ||
    (typeof value.return_code === 'number' && value.return_code !== 0);
  const pieces: string[] = [];
  if (typeof value.stdout === 'string' && value.stdout !== '') pieces.push(value.stdout);
  if (failed && typeof value.stderr === 'string' && value.stderr !== '') pieces.push(value.stderr);
  if (failed && typeof value.error_code === 'string') pieces.push(value.error_code);
  if (Array.isArray(value.outputs)) {
    for (const output of value.outputs as Array<Record<string, unknown>>) {
      if (output?.type === 'logs' && typeof output.logs === 'string') pieces.push(output.logs);
    }
  }
  return {
    codeExecutionResult: {
      outcome: failed ? 'OUTCOME_FAILED' : 'OUTCOME_OK',
      output: pieces.join('\n'),
    },
  };
}
