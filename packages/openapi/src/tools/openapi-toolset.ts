import { InvalidArgumentError, type ReadonlyContext, type Tool, type Toolset } from '@adk/core';

import { OpenApiSpecError } from '../errors';
import { loadDocument, type LoadedDocument } from '../spec/load-document';
import { operationsOf, type OperationSpec } from '../spec/operations';
import type { ServerObject } from '../spec/types';
import type { OpenApiCredentials } from './authorize';
import { RestApiTool } from './rest-api-tool';

/** Options of {@link OpenApiToolset}. */
export interface OpenApiToolsetOptions {
  /** The document: a file path (JSON or YAML), an `http(s)` URL, or the parsed object. */
  spec: string | object;
  /** The toolset's name (default `openapi`). */
  name?: string;
  /**
   * The API's base URL, replacing the document's `servers` (needed when they are relative and the
   * document was not loaded from a URL).
   */
  baseUrl?: string;
  /** Credentials by security scheme name; schemes without one go through core's credential flow. */
  credentials?: OpenApiCredentials;
  /** Headers sent with every request (a `User-Agent`, a tenant id...). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Which operations become tools: a list of tool names or `operationId`s, or a predicate. Default:
   * all of them.
   */
  operations?: readonly string[] | ((operation: OperationSpec) => boolean);
  /** Validate the document against the OpenAPI schema before use (default true). */
  validate?: boolean;
  /** Most milliseconds one call may take (default: the agent's or run's tool timeout). */
  timeoutMs?: number;
  /** Most bytes of a response body returned to the model (default 1 MiB). */
  maxResponseBytes?: number;
  /** The `fetch` used for calls (default the global one). */
  fetch?: typeof fetch;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

/**
 * Every operation of an OpenAPI 3.0 or 3.1 document as a tool: named after its `operationId` in
 * snake_case (Python ADK's naming), parameters and request body validated from the schema, auth
 * schemes (API key, HTTP bearer and basic, OAuth2, OpenID Connect) applied from the given
 * credentials or asked of the user through core's credential flow. The document is read,
 * validated and dereferenced by `@readme/openapi-parser`.
 *
 * @example
 * ```ts
 * const petstore = await OpenApiToolset.load({ spec: './petstore.yaml', baseUrl: 'http://127.0.0.1:8080/api/v3' });
 * const agent = new LlmAgent({ name: 'pets', model, tools: [petstore] });
 * ```
 */
export class OpenApiToolset implements Toolset {
  readonly name: string;
  private loaded: Promise<RestApiTool[]> | undefined;

  /**
   * A toolset that reads its document on first use. Prefer {@link OpenApiToolset.load}, which
   * reads it now, so a bad document fails at start-up rather than at the first model call.
   */
  constructor(private readonly options: OpenApiToolsetOptions) {
    this.name = options.name ?? 'openapi';
  }

  /**
   * Read, validate and dereference the document now, and build its tools.
   * @throws OpenApiSpecError for a document that cannot be read, is invalid, or has an operation
   *   without an absolute server URL when no `baseUrl` is given.
   */
  static async load(options: OpenApiToolsetOptions): Promise<OpenApiToolset> {
    const toolset = new OpenApiToolset(options);
    await toolset.tools();
    return toolset;
  }

  getTools(_context?: ReadonlyContext): Promise<Tool[]> {
    return this.tools();
  }

  /** The tool of an operation, by tool name or `operationId`. */
  async getTool(name: string): Promise<RestApiTool | undefined> {
    return (await this.tools()).find(
      (tool) => tool.name === name || tool.operation.operationId === name,
    );
  }

  private tools(): Promise<RestApiTool[]> {
    this.loaded ??= this.build();
    return this.loaded;
  }

  private async build(): Promise<RestApiTool[]> {
    const loaded = await loadDocument(this.options.spec, {
      ...(this.options.validate === undefined ? {} : { validate: this.options.validate }),
      ...(this.options.headers ? { headers: { ...this.options.headers } } : {}),
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
    const operations = operationsOf(loaded.document).filter((operation) =>
      this.selected(operation),
    );
    const taken = new Map<string, number>();
    const securitySchemes = (loaded.document.components?.securitySchemes ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    return operations.map((operation) => {
      const count = (taken.get(operation.toolName) ?? 0) + 1;
      taken.set(operation.toolName, count);
      const unique =
        count === 1 ? operation : { ...operation, toolName: `${operation.toolName}_${count}` };
      return new RestApiTool(unique, {
        serverUrl: this.serverUrl(loaded, unique),
        securitySchemes,
        credentials: this.options.credentials ?? {},
        headers: this.options.headers ?? {},
        fetch: this.options.fetch ?? globalThis.fetch,
        timeoutMs: this.options.timeoutMs,
        maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      });
    });
  }

  private selected(operation: OperationSpec): boolean {
    const filter = this.options.operations;
    if (filter === undefined) return true;
    if (typeof filter === 'function') return filter(operation);
    return filter.includes(operation.toolName) || filter.includes(operation.operationId ?? '');
  }

  private serverUrl(loaded: LoadedDocument, operation: OperationSpec): URL {
    const { baseUrl } = this.options;
    if (baseUrl !== undefined) {
      try {
        return new URL(baseUrl);
      } catch (cause) {
        throw new InvalidArgumentError({
          message: `OpenApiToolset: baseUrl "${baseUrl}" is not an absolute URL.`,
          argument: 'baseUrl',
          cause,
        });
      }
    }
    const url = withVariables(operation.servers[0]!);
    const relativeTo = loaded.documentUrl?.startsWith('http') ? loaded.documentUrl : undefined;
    try {
      return relativeTo ? new URL(url, relativeTo) : new URL(url);
    } catch (cause) {
      throw new OpenApiSpecError({
        source: loaded.source,
        problem: `operation "${operation.toolName}" has no absolute server URL ("${url}"); give the toolset a baseUrl.`,
        cause,
      });
    }
  }

  /** Release nothing: each call is one HTTP request. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function withVariables(server: ServerObject): string {
  return server.url.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const variable = server.variables?.[name];
    return variable ? variable.default : match;
  });
}
