import { EVAL_FILES } from './eval-templates';
import { projectManifest, type ProjectManifestOptions } from './project-manifest';

/**
 * The files of a new agent project, by path. `name` is a valid identifier-like app name; `local`
 * installs the ADK packages from tarballs (see {@link projectManifest}).
 */
export function projectFiles(
  options: { model: string } & ProjectManifestOptions,
): Record<string, string> {
  const { name, model } = options;
  return {
    'package.json': projectManifest(options),
    'agent.ts': `import { FunctionTool, LlmAgent } from '@adk/core';
import type { Model } from '@adk/core';
import { registerGemini } from '@adk/models-gemini';
import { z } from 'zod';

// Lets \`model: 'gemini-…'\` resolve; the key is read from GEMINI_API_KEY when the model is called.
registerGemini();

/** A tool the model can call: plain TypeScript, arguments checked by the zod schema. */
export const getTime = new FunctionTool({
  name: 'get_time',
  description: 'The current time in an IANA time zone, e.g. Europe/Paris.',
  parameters: z.object({ timeZone: z.string() }),
  execute: ({ timeZone }) => ({
    timeZone,
    time: new Date().toLocaleTimeString('en-GB', { timeZone }),
  }),
});

/** Build the agent; tests pass a fake model, \`adk run\` uses the default. */
export function createAgent(model: Model | string = process.env.ADK_MODEL ?? '${model}'): LlmAgent {
  return new LlmAgent({
    name: '${name}',
    description: 'Tells the time anywhere.',
    model,
    instruction: 'You answer questions about the time. Use get_time; keep answers short.',
    tools: [getTime],
  });
}

/** The agent \`adk run\` and \`adk web\` load. */
export const rootAgent = createAgent();
`,
    'agent.test.ts': `import { InMemorySessionService, Runner } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { expect, it } from 'vitest';

import { createAgent } from './agent.js';

it('calls get_time and answers with its result', async () => {
  // A scripted model: first it calls the tool, then it answers from the tool's result.
  const model = new FakeModel({
    responses: (request, index) => {
      if (index === 0) return { functionCalls: [{ name: 'get_time', args: { timeZone: 'Asia/Tokyo' } }] };
      const result = request.contents.at(-1)?.parts[0]?.functionResponse?.response;
      return \`It is \${String(result?.time)} in \${String(result?.timeZone)}.\`;
    },
  });
  const runner = new Runner({
    appName: '${name}',
    agent: createAgent(model),
    sessionService: new InMemorySessionService(),
    autoCreateSession: true,
  });
  let reply = '';
  for await (const event of runner.run({
    userId: 'user',
    sessionId: 'test',
    newMessage: { role: 'user', parts: [{ text: 'What time is it in Tokyo?' }] },
  })) {
    reply = event.content?.parts[0]?.text ?? reply;
  }
  expect(reply).toMatch(/^It is \\d\\d:\\d\\d:\\d\\d in Asia\\/Tokyo\\.$/);
  const declared = model.requests[0]?.config.tools?.flatMap((tool) => tool.functionDeclarations);
  expect(declared?.map((declaration) => declaration.name)).toEqual(['get_time']);
  expect(model.requests).toHaveLength(2);
});
`,
    '.env.example': `# Copy to .env and fill in; adk run / adk web read .env from the agent's folder.
GEMINI_API_KEY=
# Another model name (default ${model}):
# ADK_MODEL=gemini-2.5-pro
`,
    ...EVAL_FILES,
    '.gitignore': 'node_modules/\n.env\n.adk/\n',
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
        },
        include: ['*.ts'],
      },
      null,
      2,
    )}\n`,
    'README.md': `# ${name}

An agent made with ADK for TypeScript (\`adk create\`).

\`\`\`sh
npm install            # or pnpm install
npm test               # the agent against a fake model, no key needed
npm run typecheck      # tsc, strict
cp .env.example .env   # then set GEMINI_API_KEY
npm start              # adk run agent.ts: chat in the terminal
npm run web            # adk web: the web UI on http://127.0.0.1:8000
npm run eval           # adk eval: the eval set in evals/ against the model
\`\`\`

\`npm run web\` serves the parent folder (each agent folder in it is one app, named after the
folder). \`npm run eval\` scores the agent's tool calls and answer against
\`evals/time.evalset.json\`, with the criteria of \`evals/test_config.json\`; results go to
\`.adk/eval_history/\`, where the web UI's Eval tab reads them.
`,
  };
}
