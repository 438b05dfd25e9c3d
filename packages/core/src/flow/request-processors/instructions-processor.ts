import type { LlmAgent } from '../../agents/llm-agent';
import type { ReadonlyContext } from '../../context';
import { renderTemplate, type TemplateSources } from '../../instructions/template';
import {
  appendInstruction,
  prependInstruction,
  type RequestProcessor,
  type RequestProcessorInput,
} from './types';

/**
 * The root agent's `globalInstruction` before everything else, and the agent's `instruction` after
 * its identity. String instructions are templated (`{var}`, `{app:x}`, `{artifact.f}`...); an
 * instruction function's result is used as is.
 *
 * @throws TemplateVariableError when a required template variable has no value (the flow turns
 * it into an error event).
 */
export const instructionsProcessor: RequestProcessor = {
  name: 'instructions',
  async process(request, input) {
    const root = input.agent.rootAgent as Partial<LlmAgent>;
    const global =
      root.globalInstruction === undefined
        ? ''
        : await resolveInstruction(root.globalInstruction, input);
    const own =
      input.agent.instruction === undefined
        ? ''
        : await resolveInstruction(input.agent.instruction, input);
    return appendInstruction(prependInstruction(request, global), own);
  },
};

async function resolveInstruction(
  instruction: string | ((context: ReadonlyContext) => string | Promise<string>) | undefined,
  input: RequestProcessorInput,
): Promise<string> {
  if (instruction === undefined) return '';
  if (typeof instruction === 'function') return instruction(input.context);
  return renderTemplate(instruction, templateSources(input));
}

function templateSources(input: RequestProcessorInput): TemplateSources {
  const { invocationContext: ctx } = input;
  const artifacts = ctx.artifactService;
  const sources: TemplateSources = { state: input.context.state };
  if (artifacts) {
    sources.loadArtifact = (filename) =>
      artifacts.loadArtifact({
        appName: ctx.appName,
        userId: ctx.userId,
        sessionId: ctx.sessionId,
        filename,
      });
  }
  return sources;
}
