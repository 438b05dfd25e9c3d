import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { FakeProviderServer } from '@adk/fake-provider-servers';

import type { ConsumerProject } from '../consumer-project';
import { envFor } from '../node-runtime';
import { expectThat, runCommand, type CommandResult } from '../run-command';
import { WEATHER_ANSWER } from './fake-gemini';

/** Provider keys removed from the environment of every example: runs must not reach a real API. */
const KEY_VARIABLES = [
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_API_KEY',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GEMINI_BASE_URL',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
];

export function exampleEnv(
  project: ConsumerProject,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env = envFor(project.runtime, extra);
  for (const name of KEY_VARIABLES) if (!(name in extra)) delete env[name];
  return env;
}

/** Runs a JavaScript file of the project with the lane's Node. */
export function runNode(
  project: ConsumerProject,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; input?: string; allowFailure?: boolean } = {},
): Promise<CommandResult> {
  return runCommand(join(project.runtime.binDir, 'node'), args, {
    cwd: project.dir,
    env: exampleEnv(project, options.env),
    ...(options.input === undefined ? {} : { input: options.input }),
    allowFailure: options.allowFailure ?? false,
    timeoutMs: 120_000,
  });
}

const both = (result: CommandResult) => `${result.stdout}\n${result.stderr}`;

/**
 * The root README's first example with no API key: it must say what is wrong (the variable to
 * set) and exit with a failure, not print `weather undefined` and exit 0.
 */
export async function firstExampleWithoutKey(
  project: ConsumerProject,
  file: string,
): Promise<string> {
  const result = await runNode(project, [file], { allowFailure: true });
  expectThat(result.code !== 0, 'the first example exits 0 without an API key', both(result));
  expectThat(
    result.stderr.includes('GEMINI_API_KEY'),
    'the first example does not name GEMINI_API_KEY on stderr when the key is missing',
    both(result),
  );
  return `exit ${result.code}: ${result.stderr.trim().split('\n')[0]}`;
}

/** The root README's first example against the fake Gemini server: the tool runs, the answer prints. */
export async function firstExampleAgainstFakeGemini(
  project: ConsumerProject,
  file: string,
  gemini: FakeProviderServer,
): Promise<string> {
  const before = gemini.requests.length;
  const result = await runNode(project, [file], {
    env: { GEMINI_API_KEY: 'consumer-check-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
  });
  expectThat(
    result.stdout.includes(WEATHER_ANSWER),
    'the first example did not print the answer',
    both(result),
  );
  const requests = gemini.requests.slice(before);
  expectThat(
    requests.length === 2 && requests[0]!.headers['x-goog-api-key'] === 'consumer-check-key',
    `expected 2 Gemini requests with the key, got ${requests.length}`,
    both(result),
  );
  return `${requests.length} Gemini requests, answer printed`;
}

/** The session-sql README example on one database URL: stores an event, prints the state. */
export async function sessionSqlExample(
  project: ConsumerProject,
  file: string,
  url: string,
): Promise<string> {
  const result = await runNode(project, [file], { env: { ADK_SESSION_URL: url } });
  expectThat(
    result.stdout.includes("'user:city': 'Paris'"),
    `the session-sql example did not print the stored state on ${url.split(':')[0]}`,
    both(result),
  );
  return result.stdout.trim().split('\n').at(-1) ?? '';
}

/** Before its native addon exists, session-sql reports better-sqlite3 with a typed error. */
export async function sessionSqlWithoutAddon(
  project: ConsumerProject,
  file: string,
): Promise<string> {
  const result = await runNode(project, [file], {
    env: { ADK_SESSION_URL: 'sqlite::memory:' },
    allowFailure: true,
  });
  expectThat(
    result.code !== 0 &&
      both(result).includes('SqlDriverMissingError') &&
      both(result).includes('install-scripts approve better-sqlite3'),
    'an unbuilt better-sqlite3 is not reported as SqlDriverMissingError with the fix',
    both(result),
  );
  return 'SqlDriverMissingError (not-built)';
}

/** The CLI README's agent under `adk run`, as written: the installed provider is registered. */
export async function cliRunsReadmeAgent(
  project: ConsumerProject,
  agentFile: string,
  gemini: FakeProviderServer,
): Promise<string> {
  const result = await runNode(project, ['node_modules/@adk/cli/bin/adk.js', 'run', agentFile], {
    env: { GEMINI_API_KEY: 'consumer-check-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
    input: 'Weather in Paris?\nexit\n',
  });
  expectThat(
    result.stdout.includes(WEATHER_ANSWER),
    '`adk run` did not answer with the README agent',
    both(result),
  );
  return 'answered through @adk/models-gemini';
}

/** `startTelemetry` without its optional peer: a typed error naming the package. */
export async function telemetryWithoutSdk(project: ConsumerProject): Promise<string> {
  const file = join(project.dir, 'telemetry-without-sdk.mjs');
  writeFileSync(
    file,
    `import { startTelemetry } from '@adk/telemetry';
try { await startTelemetry(); console.log('started'); } catch (error) { console.log(error.code, error.message); }
`,
  );
  const result = await runNode(project, [file]);
  expectThat(
    result.stdout.startsWith('TELEMETRY_SDK_MISSING') &&
      result.stdout.includes('@opentelemetry/sdk-node'),
    'startTelemetry without @opentelemetry/sdk-node does not throw TelemetrySdkMissingError',
    both(result),
  );
  return 'TelemetrySdkMissingError';
}

/** The CommonJS file compiled by tsc (module nodenext) runs: `require` of the ESM packages works. */
export async function commonJsRequire(project: ConsumerProject): Promise<string> {
  const result = await runNode(project, ['readme-js/cjs/require-core.cjs']);
  expectThat(
    result.stdout.trim() === 'function cjs function',
    'require() of @adk/core failed',
    both(result),
  );
  return 'require("@adk/core") and "@adk/core/testing" work';
}

/**
 * In a project with only `@adk/core` and `zod` (no vitest): the core README's FakeModel example
 * runs, `require('@adk/core')` works, and an error event a loop never reads is reported.
 */
export async function minimalProject(
  project: ConsumerProject,
  coreExample: string,
): Promise<string> {
  expectThat(
    !existsSync(join(project.dir, 'node_modules', 'vitest')),
    'vitest got installed with @adk/core',
  );
  const example = await runNode(project, [coreExample]);
  expectThat(
    example.stdout.trim().length > 0,
    'the core README example printed nothing',
    both(example),
  );
  const required = await runNode(project, [
    '-e',
    "const core = require('@adk/core'); const { FakeModel } = require('@adk/core/testing'); console.log(typeof core.Runner, typeof FakeModel)",
  ]);
  expectThat(
    required.stdout.trim() === 'function function',
    'require("@adk/core") failed',
    both(required),
  );
  const unread = join(project.dir, 'unread-error.mjs');
  writeFileSync(
    unread,
    `import { LlmAgent, Runner, getText, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
const agent = new LlmAgent({ name: 'weather', model: new FakeModel({ responses: [new Error('the model is down')] }) });
const runner = new Runner({ appName: 'demo', agent, autoCreateSession: true });
for await (const event of runner.run({ userId: 'u', sessionId: 's', newMessage: userContent('hi') })) {
  console.log(getText(event.content));
}
`,
  );
  const warned = await runNode(project, [unread]);
  expectThat(
    warned.stderr.includes('ADK_UNREAD_ERROR_EVENT') && warned.stderr.includes('the model is down'),
    'an error event nobody read was not reported on stderr',
    both(warned),
  );
  return 'FakeModel example, require(), unread error warning; no vitest installed';
}
