import {
  getFunctionResponses,
  InvalidArgumentError,
  type CallbackContext,
  type Content,
  type FunctionDeclaration,
  type LlmRequest,
  type Part,
  type ReadonlyContext,
  type Tool,
  type ToolContext,
} from '@adk/core';

/** Name of the tool as the model sees it. */
export const LOAD_ARTIFACTS_TOOL_NAME = 'load_artifacts';

type ArtifactAccess = Pick<CallbackContext, 'loadArtifact' | 'listArtifacts'>;

function hasArtifactAccess(context: ReadonlyContext): context is ReadonlyContext & ArtifactAccess {
  const candidate = context as Partial<ArtifactAccess>;
  return (
    typeof candidate.loadArtifact === 'function' && typeof candidate.listArtifacts === 'function'
  );
}

/** What the tool returns to the model for each requested name. */
interface LoadedArtifact {
  name: string;
  found: boolean;
  mimeType?: string;
  /** Text content, for text artifacts. */
  text?: string;
  /** For binary artifacts: where the content went. */
  note?: string;
}

function isTextual(part: Part): boolean {
  if (part.text !== undefined) return true;
  const mimeType = part.inlineData?.mimeType ?? '';
  return mimeType.startsWith('text/') || mimeType === 'application/json';
}

function textOf(part: Part): string {
  return part.text ?? Buffer.from(part.inlineData?.data ?? '', 'base64').toString('utf8');
}

/**
 * The `load_artifacts` tool: lets the model read artifacts of the session (and the user's `user:`
 * artifacts) by name.
 *
 * - Before each model call it tells the model which artifacts exist.
 * - When called, text artifacts are returned in the function response; binary ones (images, PDFs)
 *   are attached to the next request as a user message, so multimodal models see them.
 *
 * Needs an `artifactService` on the runner.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: 'reader', model, tools: [loadArtifactsTool] });
 * ```
 */
export class LoadArtifactsTool implements Tool {
  readonly name = LOAD_ARTIFACTS_TOOL_NAME;
  readonly description =
    'Loads artifacts (files saved in this conversation) by name so you can read them. Call it when the user asks about an artifact or you need its content.';

  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: {
          artifact_names: {
            type: 'array',
            items: { type: 'string' },
            description: 'Names of the artifacts to load, exactly as listed.',
          },
        },
        required: ['artifact_names'],
      },
    };
  }

  async run(
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<{ artifacts: LoadedArtifact[] }> {
    const names = args.artifact_names;
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
      throw new InvalidArgumentError({
        message: 'artifact_names must be an array of strings.',
        argument: 'artifact_names',
      });
    }
    const artifacts: LoadedArtifact[] = [];
    for (const name of new Set(names as string[])) {
      const part = await context.loadArtifact(name);
      if (!part) {
        artifacts.push({ name, found: false });
      } else if (isTextual(part)) {
        artifacts.push({
          name,
          found: true,
          mimeType: part.inlineData?.mimeType ?? 'text/plain',
          text: textOf(part),
        });
      } else {
        const mimeType = part.inlineData?.mimeType ?? part.fileData?.mimeType;
        artifacts.push({
          name,
          found: true,
          ...(mimeType ? { mimeType } : {}),
          note: 'Binary content attached to the conversation.',
        });
      }
    }
    return { artifacts };
  }

  async processRequest(context: ReadonlyContext, request: LlmRequest): Promise<void> {
    if (!hasArtifactAccess(context)) return;
    const names = await context.listArtifacts();
    if (names.length > 0) {
      const listing =
        `You can read these artifacts with \`${this.name}\`: ${JSON.stringify(names)}. ` +
        'When the user asks about one of them or you need its content, call the tool with its name.';
      request.systemInstruction = request.systemInstruction
        ? `${request.systemInstruction}\n\n${listing}`
        : listing;
    }
    const attachment = await this.#binaryAttachment(context, request);
    if (attachment) request.contents.push(attachment);
  }

  /** After a `load_artifacts` response, the binary artifacts it named, as a user message. */
  async #binaryAttachment(
    context: ArtifactAccess,
    request: LlmRequest,
  ): Promise<Content | undefined> {
    const last = request.contents.at(-1);
    const responses = getFunctionResponses(last).filter((r) => r.name === this.name);
    const parts: Part[] = [];
    for (const response of responses) {
      const loaded = (response.response as { artifacts?: unknown }).artifacts;
      if (!Array.isArray(loaded)) continue;
      for (const item of loaded as LoadedArtifact[]) {
        if (!item?.found || item.text !== undefined || typeof item.name !== 'string') continue;
        const part = await context.loadArtifact(item.name);
        if (!part) continue;
        parts.push({ text: `Artifact "${item.name}":` }, part);
      }
    }
    return parts.length > 0 ? { role: 'user', parts } : undefined;
  }
}

/** A ready-made {@link LoadArtifactsTool}. */
export const loadArtifactsTool: LoadArtifactsTool = new LoadArtifactsTool();
