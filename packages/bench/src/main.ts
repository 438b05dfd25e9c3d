/**
 * `pnpm bench`: ADK for TypeScript against @google/adk 2.0.0, side by side in one run.
 *
 * Each run starts one fresh worker process per framework (alternating which goes first), warms it
 * up and runs the in-memory scenarios; the table quotes the median of the runs. Then the share of
 * request bytes that is a stable prompt prefix over a 20-turn session is measured once (it is
 * deterministic; `--no-prefix` skips it). Then the SQL
 * session store benchmark runs when `src/session-sql.ts` is present. Results are printed as a
 * Markdown table and written to `bench-results/latest.json` at the repository root.
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';

import type { FrameworkId } from './frameworks/framework';
import { parseOptions } from './options';
import { inMemoryRows } from './report/in-memory-rows';
import type { Collected } from './report/in-memory-rows';
import type { BenchRow } from './report/row';
import { renderTable } from './report/table';
import { writeResults } from './report/write-results';
import { runPromptPrefixBench } from './prompt-prefix';
import { runWorker } from './run-worker';
import type { ScenarioName } from './scenarios';
import { runMcpBench } from './mcp-bench';
import { runAiSdkBench } from './ai-sdk-bench';
import { runLiveProviderBench } from './live-provider-bench';
import { runOpenApiBench } from './openapi-bench';
import { runSqlBench } from './sql-bench';
import { runWorkflowBench } from './workflow-bench';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = new Date();
  const flags = [...(options.quick ? ['--quick'] : []), `--only=${options.scenarios.join(',')}`];
  const collected: Collected = {
    'adk-ts': {},
    'google-adk': {},
    floor: {},
    'contract-floor': {},
  };
  const failures: string[] = [];

  for (let run = 0; run < options.runs; run++) {
    const order: FrameworkId[] =
      run % 2 === 0 ? [...options.frameworks] : [...options.frameworks].reverse();
    for (const framework of order) {
      console.error(`[bench] run ${run + 1}/${options.runs}: ${framework}`);
      try {
        const result = await runWorker(framework, flags);
        for (const [scenario, metrics] of Object.entries(result.metrics)) {
          ((collected[framework] ??= {})[scenario as ScenarioName] ??= []).push(metrics);
        }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.push(`run ${run + 1}: ${message}`);
        console.error(`[bench] ${message}`);
      }
    }
  }

  const rows: BenchRow[] = inMemoryRows(collected).filter(
    (row) => row.ours !== undefined || row.theirs !== undefined,
  );
  let prefix: unknown;
  if (options.prefix && options.frameworks.includes('adk-ts')) {
    console.error('[bench] stable prompt prefix');
    try {
      const outcome = await runPromptPrefixBench();
      rows.push(...outcome.rows);
      prefix = outcome.raw;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`prefix: ${message}`);
      console.error(`[bench] prompt prefix failed: ${message}`);
    }
  }
  let sql: unknown;
  if (options.sql && existsSync(new URL('./session-sql.ts', import.meta.url))) {
    console.error('[bench] SQL session store');
    try {
      const outcome = await runSqlBench(options.quick);
      rows.push(...outcome.rows);
      sql = outcome.raw;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`sql: ${message}`);
      console.error(`[bench] SQL benchmark failed: ${message}`);
    }
  }

  if (options.workflow) {
    console.error('[bench] workflow per-node overhead');
    try {
      rows.push(...(await runWorkflowBench({ quick: options.quick })));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`workflow: ${message}`);
      console.error(`[bench] workflow benchmark failed: ${message}`);
    }
  }

  let mcp: unknown;
  if (options.mcp) {
    console.error('[bench] MCP tool calls over stdio');
    try {
      const outcome = await runMcpBench({ quick: options.quick });
      rows.push(...outcome.rows);
      mcp = outcome.raw;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`mcp: ${message}`);
      console.error(`[bench] MCP benchmark failed: ${message}`);
    }
  }

  // The AI SDK adapter against our own OpenAI provider; ADK_BENCH_AI_SDK=0 skips it.
  if (process.env.ADK_BENCH_AI_SDK !== '0') {
    console.error('[bench] AI SDK adapter');
    try {
      rows.push(...(await runAiSdkBench({ quick: options.quick })));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`ai-sdk: ${message}`);
      console.error(`[bench] AI SDK benchmark failed: ${message}`);
    }
  }

  // OpenAPI toolset load time (200 operations); ADK_BENCH_OPENAPI=0 skips it.
  if (process.env.ADK_BENCH_OPENAPI !== '0') {
    console.error('[bench] OpenAPI toolset load');
    try {
      rows.push(...(await runOpenApiBench({ quick: options.quick })));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`openapi: ${message}`);
      console.error(`[bench] OpenAPI benchmark failed: ${message}`);
    }
  }

  // The live path through a provider socket (models-gemini, server in its own process) against a
  // bare ws relay of the provider's frames; ADK_BENCH_LIVE_PROVIDER=0 skips it.
  let liveProvider: unknown;
  if (process.env.ADK_BENCH_LIVE_PROVIDER !== '0') {
    console.error('[bench] live audio frames through a provider socket');
    try {
      const outcome = await runLiveProviderBench({ quick: options.quick });
      rows.push(...outcome.rows);
      liveProvider = outcome.raw;
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      failures.push(`live provider: ${message}`);
      console.error(`[bench] live provider benchmark failed: ${message}`);
    }
  }

  // The jobs benchmark (queue engines beside the embedded SQLite store); ADK_BENCH_JOBS=0 skips it.
  let jobsTable: string | undefined;
  if (process.env.ADK_BENCH_JOBS !== '0') {
    console.error('[bench] jobs');
    try {
      const { renderJobsBench, runJobsBench } = await import('./jobs-bench');
      jobsTable = renderJobsBench(await runJobsBench({ quick: options.quick }));
    } catch (error) {
      failures.push(`jobs: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // The semantic memory benchmark (issue 33); ADK_BENCH_MEMORY=0 skips it.
  let memoryTable: string | undefined;
  if (process.env.ADK_BENCH_MEMORY !== '0') {
    console.error('[bench] memory');
    try {
      const { renderMemoryBench, runMemoryBench } = await import('./memory-bench');
      memoryTable = renderMemoryBench(await runMemoryBench({ quick: options.quick }));
    } catch (error) {
      failures.push(`memory: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // The live path benchmark (issue 27); ADK_BENCH_LIVE=0 skips it.
  let liveTable: string | undefined;
  if (process.env.ADK_BENCH_LIVE !== '0') {
    console.error('[bench] live');
    try {
      const { renderLiveBench, runLiveBench } = await import('./live-bench');
      liveTable = renderLiveBench(await runLiveBench({ quick: options.quick }));
    } catch (error) {
      failures.push(`live: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const table = renderTable(rows);
  console.log(
    `\nADK for TypeScript vs @google/adk 2.0.0 — medians of ${options.runs} run(s)${options.quick ? ' (--quick)' : ''}, ` +
      `Node ${process.version}, ${cpus().length} CPU(s)\n`,
  );
  console.log(table);
  if (jobsTable)
    console.log(`\nBackground jobs (FakeModel agent, one tool call per job):\n\n${jobsTable}`);
  if (memoryTable)
    console.log(`\nSemantic memory (768 dimensions, top 10 by meaning):\n\n${memoryTable}`);
  if (liveTable)
    console.log(`\nLive path, provider frame to client (20 ms audio frames):\n\n${liveTable}`);
  if (failures.length > 0) console.log(`\nFailures:\n- ${failures.join('\n- ')}`);
  const path = await writeResults({
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    options,
    rows,
    runs: collected,
    sql,
    prefix,
    mcp,
    liveProvider,
    failures,
    table,
  });
  console.log(`\nResults written to ${path}`);
  if (failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
