/** The files of a new agent project, by path. `name` is a valid identifier-like app name. */
export function projectFiles(options: {
  name: string;
  model: string;
  adkVersion: string;
}): Record<string, string> {
  const { name, model, adkVersion } = options;
  const range = `^${adkVersion}`;
  return {
    'package.json': `${JSON.stringify(
      {
        name: name.replace(/_/g, '-').toLowerCase(),
        version: '0.1.0',
        private: true,
        type: 'module',
        scripts: {
          start: 'adk run agent.ts',
          web: 'adk web ..',
          test: 'vitest run',
        },
        dependencies: {
          '@adk/core': range,
          '@adk/models-gemini': range,
          zod: '^4.0.0',
        },
        devDependencies: {
          '@adk/cli': range,
          typescript: '~5.9.3',
          vitest: '~4.1.0',
        },
      },
      null,
      2,
    )}\n`,
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

import { createAgent } from './agent';

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
npm install
cp .env.example .env   # then set GEMINI_API_KEY
npm start              # adk run agent.ts: chat in the terminal
npm test               # the agent against a fake model, no key needed
\`\`\`

\`npm run web\` serves the parent folder with the web UI (each agent folder is one app).
`,
  };
}
