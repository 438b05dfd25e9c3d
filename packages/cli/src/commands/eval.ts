import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

import {
  LocalEvalSetResultsStore,
  evaluate,
  formatOutcomeTable,
  statusLabel,
  textOf,
  toolCallsOf,
  type EvalSetOutcome,
} from '@adk/eval';

import { AgentLoadError, UsageError } from '../errors';
import { parseCommandArgs, type CommandModule } from './command';
import { agentAppOf, loadAgentFile, type AgentApp } from '../load-agents';

/** Help of `adk eval`. */
export const EVAL_HELP = `Usage:
  adk eval <agent> <evalset>[:case,...] [<evalset>...] [options]
      Run eval sets (*.evalset.json, or older *.test.json) against an agent folder (its agent.ts or
      index.ts) or agent file; print a summary table; exit 1 when a case fails a threshold.

Options:
  --config_file_path P      test_config.json with the metrics and thresholds (default: the one
                            beside each eval set, else tool_trajectory_avg_score 1.0 and
                            response_match_score 0.8)
  --print_detailed_results  Print each invocation's scores, answers and tool calls
  --num_runs N              Run each case N times (scores are averaged; default 1)
  --record CASSETTE         Record the agent's model calls to a JSONL cassette
  --replay CASSETTE         Serve the model calls from a cassette (offline, deterministic)
  --no_save                 Do not write results to <app>/.adk/eval_history/
`;

/** The options of `adk eval`, parsed. */
interface EvalValues {
  config_file_path?: string | undefined;
  print_detailed_results?: boolean | undefined;
  num_runs?: string | undefined;
  record?: string | undefined;
  replay?: string | undefined;
  no_save?: boolean | undefined;
}

/** Where `adk eval` writes to. */
export interface EvalCommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

function agentEntry(path: string): AgentApp {
  try {
    return agentAppOf(path);
  } catch (error) {
    if (AgentLoadError.isInstance(error)) throw new UsageError(error.message);
    throw error;
  }
}

/** `file.evalset.json:case_a,case_b` → the file and the case ids. */
function splitEvalSetArg(arg: string): { file: string; caseIds?: string[] } {
  const match = /^(.*\.json):([^/\\]+)$/.exec(arg);
  if (!match) return { file: arg };
  return {
    file: match[1]!,
    caseIds: match[2]!
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
  };
}

function progressBar(io: EvalCommandIo, label: string) {
  return (p: { done: number; total: number; evalId: string; status: 1 | 2 | 3 }) => {
    if (io.stderr.isTTY) {
      const width = 24;
      const filled = Math.round((p.done / p.total) * width);
      io.stderr.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total}`,
      );
      if (p.done === p.total) io.stderr.write('\n');
    } else {
      io.stderr.write(`${label} ${p.done}/${p.total} ${p.evalId}: ${statusLabel(p.status)}\n`);
    }
  };
}

function detailed(outcome: EvalSetOutcome): string {
  const lines: string[] = [];
  for (const result of outcome.evalCaseResults) {
    lines.push(`\n== ${result.evalId}: ${statusLabel(result.finalEvalStatus)}`);
    if (typeof result.error === 'string') lines.push(`   ${result.error}`);
    result.evalMetricResultPerInvocation.forEach((turn, index) => {
      lines.push(`-- invocation ${index + 1}`);
      lines.push(`   user:     ${textOf(turn.actualInvocation.userContent)}`);
      lines.push(`   actual:   ${textOf(turn.actualInvocation.finalResponse)}`);
      if (turn.expectedInvocation)
        lines.push(`   expected: ${textOf(turn.expectedInvocation.finalResponse)}`);
      lines.push(
        `   tools:    ${JSON.stringify(toolCallsOf(turn.actualInvocation.intermediateData).map(({ name, args }) => ({ name, args })))}`,
      );
      if (turn.expectedInvocation) {
        lines.push(
          `   expected: ${JSON.stringify(toolCallsOf(turn.expectedInvocation.intermediateData).map(({ name, args }) => ({ name, args })))}`,
        );
      }
      for (const metric of turn.evalMetricResults) {
        lines.push(
          `   ${metric.metricName}: ${metric.score === undefined ? '-' : metric.score.toFixed(3)} (threshold ${metric.threshold}) ${statusLabel(metric.evalStatus)}`,
        );
      }
    });
  }
  return lines.join('\n');
}

/**
 * `adk eval`: run eval sets against an agent, print progress (stderr), a summary table (stdout)
 * and optionally every invocation; save results to `.adk/eval_history/`. Returns the exit code:
 * 0 when every case passed, 1 when one failed (2 is a usage error, thrown as `UsageError`).
 */
export async function evalCommand(args: string[], io: EvalCommandIo = process): Promise<number> {
  const { values, positionals, help } = parseCommandArgs(evalCommandModule, args);
  if (help) {
    io.stdout.write(EVAL_HELP);
    return 0;
  }
  return runEval(values as EvalValues, positionals, io);
}

/** `adk eval` once its arguments are parsed. */
async function runEval(
  values: EvalValues,
  positionals: string[],
  io: EvalCommandIo,
): Promise<number> {
  const [agentPath, ...evalSetArgs] = positionals;
  if (!agentPath || evalSetArgs.length === 0) {
    throw new UsageError(
      'adk eval needs an agent and at least one eval set: adk eval ./my_agent ./my_agent/x.evalset.json',
    );
  }
  const numRuns = values.num_runs === undefined ? 1 : Number(values.num_runs);
  if (!Number.isInteger(numRuns) || numRuns < 1)
    throw new UsageError(`Invalid --num_runs: ${String(values.num_runs)}`);
  if (values.record !== undefined && values.replay !== undefined) {
    throw new UsageError('Use --record or --replay, not both.');
  }
  if (values.replay !== undefined && !existsSync(values.replay)) {
    throw new UsageError(`Cassette not found: ${resolve(values.replay)}`);
  }
  // Named as `adk web` and `adk mcp` name it, so results land where the web UI's Eval tab reads.
  const { file, appName, agentsDir } = agentEntry(agentPath);
  const results = new LocalEvalSetResultsStore(agentsDir);
  let failed = false;
  for (const arg of evalSetArgs) {
    const { file: evalSetFile, caseIds } = splitEvalSetArg(arg);
    // A fresh agent per eval set: recording and replay wrap its models.
    const agent = await loadAgentFile(file);
    const cassette = values.record ?? values.replay;
    const outcome = await evaluate(agent, evalSetFile, {
      appName,
      numRuns,
      onProgress: progressBar(io, basename(evalSetFile)),
      ...(caseIds ? { caseIds } : {}),
      ...(values.config_file_path ? { configFile: values.config_file_path } : {}),
      ...(cassette
        ? { cassette, cassetteMode: values.record ? ('record' as const) : ('replay' as const) }
        : {}),
    });
    io.stdout.write(`${formatOutcomeTable(outcome)}\n`);
    if (values.print_detailed_results) io.stdout.write(`${detailed(outcome)}\n`);
    if (!values.no_save) {
      const saved = await results.saveEvalSetResult(
        appName,
        outcome.evalSetId,
        outcome.evalCaseResults,
      );
      io.stdout.write(
        `Results: ${join(results.historyDir(appName), `${saved.evalSetResultName}.evalset_result.json`)}\n`,
      );
    }
    if (!outcome.passed) failed = true;
  }
  return failed ? 1 : 0;
}

/** `adk eval`, as a module of the `adk` command list. */
export const evalCommandModule: CommandModule = {
  name: 'eval',
  args: '<agent> <evalset>[:case,...] [<evalset>...] [options]',
  summary:
    'Run eval sets (*.evalset.json, *.test.json) against an agent; print a summary; exit 1 when a case fails.',
  options: {
    config_file_path: {
      type: 'string',
      value: 'P',
      description: 'test_config.json with the metrics and thresholds (default: beside each set)',
    },
    print_detailed_results: {
      type: 'boolean',
      description: "Print each invocation's scores, answers and tool calls",
    },
    num_runs: { type: 'string', value: 'N', description: 'Run each case N times (default 1)' },
    record: { type: 'string', value: 'CASSETTE', description: "Record the model's calls (JSONL)" },
    replay: {
      type: 'string',
      value: 'CASSETTE',
      description: 'Serve the model calls from a cassette',
    },
    no_save: { type: 'boolean', description: 'Do not write results to <app>/.adk/eval_history/' },
  },
  run: ({ values, positionals }) => runEval(values as EvalValues, positionals, process),
};
