import type { FunctionDeclaration, Tool, ToolContext } from '@adk/core';

import type { McpConnection } from '../client/mcp-connection';
import type { McpToolset } from '../client/mcp-toolset';

/** Options of {@link LoadMcpResourceTool}. */
export interface LoadMcpResourceToolOptions {
  /** The name the model calls (default `load_mcp_resource`, prefixed by nothing). */
  name?: string;
  /** Resources listed or read per call at most (default 100); longer lists are cut. */
  maxListed?: number;
}

/**
 * Lets the model read the resources of an MCP server: called without `uri` it lists them
 * (`resources/list`: uri, name, description, MIME type), with a `uri` it reads one
 * (`resources/read`; text as text, binary content as base64 `blob`). Shares the toolset's
 * connection.
 *
 * @example
 * ```ts
 * const docs = new McpToolset({ connection: { transport: 'streamable-http', url } });
 * const agent = new LlmAgent({ name: 'a', model, tools: [docs, new LoadMcpResourceTool(docs)] });
 * ```
 */
export class LoadMcpResourceTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly #connection: McpConnection;
  readonly #maxListed: number;
  readonly #declaration: FunctionDeclaration;

  constructor(source: McpToolset | McpConnection, options: LoadMcpResourceToolOptions = {}) {
    this.#connection = 'connection' in source ? source.connection : source;
    this.#maxListed = options.maxListed ?? 100;
    this.name = options.name ?? 'load_mcp_resource';
    this.description = `Reads a resource (document, file, record) of the MCP server "${this.#connection.serverName}". Call it without "uri" to list the available resources, then with the "uri" of the one to read.`;
    this.#declaration = {
      name: this.name,
      description: this.description,
      parameters: {
        type: 'object',
        properties: {
          uri: { type: 'string', description: 'URI of the resource to read; omit to list them.' },
        },
      },
    };
  }

  declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /** List the resources, or read the one named by `uri`. */
  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const uri = typeof args.uri === 'string' && args.uri !== '' ? args.uri : undefined;
    const base = { signal: context.signal, context };
    if (uri === undefined) {
      const resources = await this.#connection.request(
        async (client, options) => {
          const listed: Record<string, unknown>[] = [];
          let cursor: string | undefined;
          do {
            const page = await client.listResources(
              cursor === undefined ? {} : { cursor },
              options,
            );
            for (const resource of page.resources) {
              if (listed.length >= this.#maxListed) return listed;
              listed.push({
                uri: resource.uri,
                name: resource.name,
                ...(resource.description === undefined
                  ? {}
                  : { description: resource.description }),
                ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
              });
            }
            cursor = page.nextCursor;
          } while (cursor !== undefined);
          return listed;
        },
        { operation: 'resources/list', ...base },
      );
      return { resources };
    }
    const read = await this.#connection.request(
      (client, options) => client.readResource({ uri }, options),
      { operation: `resources/read "${uri}"`, ...base },
    );
    return {
      contents: read.contents.slice(0, this.#maxListed).map((content) => ({
        uri: content.uri,
        ...(content.mimeType === undefined ? {} : { mimeType: content.mimeType }),
        ...('text' in content ? { text: content.text } : { blob: content.blob }),
      })),
    };
  }
}
