import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { makeContext } from '../../../test/helpers';
import { LlmAgent, type LlmAgentOptions } from '../../agents/llm-agent';
import { userContent, modelContent } from '../../content';
import { InvocationReadonlyContext } from '../../context/invocation-contexts';
import { createEvent, type Event } from '../../events';
import type { GenerateContentConfig, LlmRequest } from '../../models';
import type { RunConfig } from '../../context/run-config';
import { FunctionTool } from '../../tools/function-tool';
import type { Tool } from '../../tools/tool';
import {
  SET_MODEL_RESPONSE_INSTRUCTION,
  setModelResponseToolFor,
} from '../set-model-response-tool';
import { transferToolFor } from '../transfer-to-agent-tool';
import { buildRequestNow, defaultRequestProcessors } from './default-processors';
import { buildDefaultRequest } from './default-request';
import { identityProcessor } from './identity-processor';
import type { RequestProcessor, RequestProcessorInput } from './types';

/** What the default processors build when run one by one through their `process`. */
async function viaProcessors(model: string, input: RequestProcessorInput): Promise<LlmRequest> {
  let request: LlmRequest = { model, contents: [], config: {} };
  for (const processor of defaultRequestProcessors)
    request = await processor.process(request, input);
  return request;
}

/** A small deterministic generator (the same cases on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const weather = new FunctionTool({
  name: 'get_weather',
  description: 'Weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city }),
});
const clock = new FunctionTool({
  name: 'get_time',
  description: 'The time.',
  execute: () => '12:00',
});
const undeclared: Tool = {
  name: 'hidden',
  description: 'No declaration.',
  declaration: () => undefined,
  run: async () => 'ok',
};

const GLOBALS = [undefined, 'Be brief.', '  Padded global.\n', '', '   '];
const OWNS = [undefined, 'Answer the question.', '\n Padded own.  ', ''];
const STATICS = [undefined, 'A long stable prompt.', ''];
const DESCRIPTIONS = [undefined, 'Answers questions.', '   ', '  Padded description. '];
const SCHEMAS = [undefined, z.object({ answer: z.string() })];
const AGENT_CONFIGS: (GenerateContentConfig | undefined)[] = [
  undefined,
  { temperature: 0.1 },
  {
    temperature: 0.2,
    tools: [{ functionDeclarations: [{ name: 'own', description: 'Declared in the config.' }] }],
  },
  { responseMimeType: 'text/plain', maxOutputTokens: 10 },
];
const RUN_CONFIGS: (GenerateContentConfig | undefined)[] = [
  undefined,
  { temperature: 0.9 },
  { responseMimeType: 'text/x' },
];
const TOOLS: Tool[][] = [[], [weather], [undeclared], [weather, undeclared, clock]];

function history(agentName: string): Event[] {
  const invocationId = 'e-1';
  return [
    createEvent({ invocationId, author: 'user', content: userContent('Weather in Paris?') }),
    createEvent({ invocationId, author: agentName, content: modelContent('Sunny.') }),
    createEvent({ invocationId, author: 'other', content: modelContent('I am another agent.') }),
  ];
}

async function inputFor(
  options: LlmAgentOptions & { global?: string; transfer?: boolean; answerTool?: boolean },
  extra: { runConfig?: Partial<RunConfig>; tools?: Tool[] } = {},
): Promise<RequestProcessorInput> {
  const { global, transfer, answerTool, ...agentOptions } = options;
  const agent = new LlmAgent({
    ...agentOptions,
    disallowTransferToParent: !transfer,
    disallowTransferToPeers: !transfer,
  });
  // The root carries the global instruction; with `transfer`, the agent may hand over to a peer.
  new LlmAgent({
    name: 'root',
    globalInstruction: global,
    subAgents: transfer
      ? [agent, new LlmAgent({ name: 'peer', description: 'Another agent.' })]
      : [agent],
  });
  const tools = [...(extra.tools ?? [])];
  const transferTool = transferToolFor(agent);
  if (transferTool) tools.push(transferTool);
  // As the flow adds it: last, for an agent with an output schema.
  if (answerTool && agent.outputSchema) tools.push(setModelResponseToolFor(agent));
  const ctx = await makeContext(agent, { runConfig: extra.runConfig, events: history(agent.name) });
  return { agent, invocationContext: ctx, context: new InvocationReadonlyContext(ctx), tools };
}

async function expectSameAsProcessors(input: RequestProcessorInput): Promise<LlmRequest> {
  const fast = buildDefaultRequest('m', input);
  expect(fast).toBeDefined();
  const expected = await viaProcessors('m', input);
  expect(fast).toStrictEqual(expected);
  // Same members in the same order, down to the config's keys.
  expect(JSON.stringify(fast)).toBe(JSON.stringify(expected));
  return fast!;
}

describe('buildDefaultRequest', () => {
  it('builds what the default processors build, for every combination of instructions', async () => {
    for (const global of GLOBALS)
      for (const instruction of OWNS)
        for (const staticInstruction of STATICS)
          for (const description of DESCRIPTIONS) {
            await expectSameAsProcessors(
              await inputFor({
                name: 'helper',
                global,
                instruction,
                staticInstruction,
                description,
              }),
            );
          }
  });

  it('builds what the default processors build, over varied agents, runs and tools', async () => {
    const next = random(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    for (let index = 0; index < 150; index++) {
      const runGenerateConfig = pick(RUN_CONFIGS);
      await expectSameAsProcessors(
        await inputFor(
          {
            name: 'helper',
            global: pick(GLOBALS),
            instruction: pick(OWNS),
            staticInstruction: pick(STATICS),
            description: pick(DESCRIPTIONS),
            outputSchema: pick(SCHEMAS),
            generateContentConfig: pick(AGENT_CONFIGS),
            includeContents: pick(['default', 'none'] as const),
            transfer: next() < 0.5,
            answerTool: next() < 0.5,
          },
          {
            runConfig: runGenerateConfig && { generateContentConfig: runGenerateConfig },
            tools: pick(TOOLS),
          },
        ),
      );
    }
  });

  it('covers the output schema, the transfer block and tools together', async () => {
    const request = await expectSameAsProcessors(
      await inputFor(
        {
          name: 'helper',
          global: 'Global.',
          instruction: 'Own.',
          description: 'About.',
          outputSchema: z.object({ answer: z.string() }),
          generateContentConfig: AGENT_CONFIGS[2],
          transfer: true,
        },
        { runConfig: { generateContentConfig: { temperature: 1 } }, tools: [weather] },
      ),
    );
    expect(request.systemInstruction).toMatch(
      /^Global\.\n\nYou are helper\. About\.\n\nOwn\.\n\nReply with valid JSON[^]*\n\n[^]*peer/,
    );
    expect(request.config.tools).toHaveLength(2);
    expect(request.config.responseMimeType).toBe('application/json');
    expect(request.contents.length).toBeGreaterThan(0);
  });

  it('covers set_model_response with the transfer block and tools: no response schema', async () => {
    const request = await expectSameAsProcessors(
      await inputFor(
        {
          name: 'helper',
          instruction: 'Own.',
          outputSchema: z.object({ answer: z.string() }),
          transfer: true,
          answerTool: true,
        },
        { tools: [weather] },
      ),
    );
    expect(request.systemInstruction).toContain(
      `You are helper.\n\nOwn.\n\n${SET_MODEL_RESPONSE_INSTRUCTION}\n\n`,
    );
    expect(request.systemInstruction).toMatch(/peer/);
    expect(request.systemInstruction).not.toContain('Reply with valid JSON');
    expect(request.config.tools![0]!.functionDeclarations.map((d) => d.name)).toEqual([
      'get_weather',
      'transfer_to_agent',
      'set_model_response',
    ]);
    expect(request.config.responseSchema).toBeUndefined();
    expect(request.config.responseMimeType).toBeUndefined();
  });

  it('leaves to the processors what has to wait: templates, instruction functions, request hooks', async () => {
    const templated = await inputFor({ name: 'helper', instruction: 'Hi {name?}' });
    expect(buildDefaultRequest('m', templated)).toBeUndefined();
    const globalTemplated = await inputFor({ name: 'helper', global: 'For {user:name?}' });
    expect(buildDefaultRequest('m', globalTemplated)).toBeUndefined();
    const provided = await inputFor({ name: 'helper', instruction: () => 'computed' });
    expect(buildDefaultRequest('m', provided)).toBeUndefined();
    const hooked: Tool = {
      ...undeclared,
      processRequest: (_context, request) => {
        request.systemInstruction = `${request.systemInstruction}\n\nhooked`;
      },
    };
    const withHook = await inputFor({ name: 'helper' }, { tools: [weather, hooked] });
    expect(buildDefaultRequest('m', withHook)).toBeUndefined();

    // buildRequestNow still gives the processors' result for each of them.
    for (const input of [templated, globalTemplated, provided, withHook]) {
      const built = await buildRequestNow('m', defaultRequestProcessors, input);
      expect(built).toStrictEqual(await viaProcessors('m', input));
    }
    const hookedRequest = await buildRequestNow('m', defaultRequestProcessors, withHook);
    expect(hookedRequest.systemInstruction).toMatch(/hooked$/);
  });

  it('sees an instruction changed after a first request', async () => {
    const input = await inputFor({ name: 'helper', instruction: 'First.', description: 'A.' });
    expect(buildDefaultRequest('m', input)?.systemInstruction).toBe('You are helper. A.\n\nFirst.');
    const agent = input.agent as { -readonly [K in 'instruction' | 'description']: unknown };
    agent.instruction = 'Second.';
    expect(buildDefaultRequest('m', input)?.systemInstruction).toBe(
      'You are helper. A.\n\nSecond.',
    );
    agent.description = 'B.';
    expect(buildDefaultRequest('m', input)?.systemInstruction).toBe(
      'You are helper. B.\n\nSecond.',
    );
    await expectSameAsProcessors(input);
  });

  it('is used only for the default processors, unchanged', async () => {
    const input = await inputFor({ name: 'helper', instruction: 'Own.' });
    const marker: RequestProcessor = {
      name: 'marker',
      process: (request) => ({ ...request, systemInstruction: `${request.systemInstruction}!` }),
    };
    // A copy of the default list takes the one-pass path too.
    expect(buildRequestNow('m', [...defaultRequestProcessors], input)).toStrictEqual(
      await viaProcessors('m', input),
    );
    // A processor added to the default list itself runs.
    (defaultRequestProcessors as RequestProcessor[]).push(marker);
    try {
      const request = await buildRequestNow('m', defaultRequestProcessors, input);
      expect(request.systemInstruction).toBe('You are helper.\n\nOwn.!');
    } finally {
      (defaultRequestProcessors as RequestProcessor[]).pop();
    }
    // A built-in processor replaced at run time is honoured.
    const original = identityProcessor.process;
    (identityProcessor as { process: RequestProcessor['process'] }).process = (request) => ({
      ...request,
      systemInstruction: 'Patched identity.',
    });
    try {
      const request = await buildRequestNow('m', defaultRequestProcessors, input);
      expect(request.systemInstruction).toBe('Patched identity.\n\nOwn.');
    } finally {
      (identityProcessor as { process: RequestProcessor['process'] }).process = original;
    }
    expect((await buildRequestNow('m', defaultRequestProcessors, input)).systemInstruction).toBe(
      'You are helper.\n\nOwn.',
    );
  });
});
