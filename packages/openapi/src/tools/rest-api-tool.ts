import {
  ToolArgumentsError,
  validateJsonSchema,
  type FunctionDeclaration,
  type Tool,
  type ToolContext,
} from '@adk/core';

import type { OperationSpec } from '../spec/operations';
import type { SchemaObject } from '../spec/types';
import { authorize, type OpenApiCredentials } from './authorize';
import { buildRequest } from './build-request';

/** What every tool of one toolset shares. */
export interface RestApiToolSettings {
  serverUrl: URL;
  securitySchemes: Readonly<Record<string, SchemaObject>>;
  credentials: OpenApiCredentials;
  headers: Readonly<Record<string, string>>;
  fetch: typeof fetch;
  timeoutMs: number | undefined;
  maxResponseBytes: number;
}

/**
 * One operation of an OpenAPI document as a tool. Arguments are validated against the
 * operation's parameters and request body before any request is sent; a response with a 2xx
 * status returns its body (JSON parsed), any other status `{ error: { code: 'HTTP_ERROR',
 * status, message, body } }`, so the model can correct its call.
 */
export class RestApiTool implements Tool {
  readonly name: string;
  readonly description: string;
  readonly timeoutMs: number | undefined;
  /** GET, HEAD and OPTIONS are safe to repeat (a resumed run may call them again). */
  readonly isIdempotent: boolean;
  private readonly cachedDeclaration: FunctionDeclaration;

  constructor(
    readonly operation: OperationSpec,
    private readonly settings: RestApiToolSettings,
  ) {
    this.name = operation.toolName;
    this.description = operation.description;
    this.timeoutMs = settings.timeoutMs;
    this.isIdempotent = ['get', 'head', 'options'].includes(operation.method);
    this.cachedDeclaration = {
      name: this.name,
      description: this.description,
      parameters: operation.parameters,
    };
  }

  declaration(): FunctionDeclaration {
    return this.cachedDeclaration;
  }

  async run(args: Record<string, unknown>, context: ToolContext): Promise<unknown> {
    const issues = validateJsonSchema(this.operation.parameters, args);
    if (issues.length > 0) throw new ToolArgumentsError({ toolName: this.name, issues });
    const request = buildRequest(this.operation, args, this.settings.serverUrl);
    for (const [name, value] of Object.entries(this.settings.headers)) {
      if (!request.headers.has(name)) request.headers.set(name, value);
    }
    const authorization = await authorize(
      this.operation.security,
      this.settings.securitySchemes,
      this.settings.credentials,
      context,
      request,
    );
    if (!authorization.ok) return authorization.pending;
    if (!request.headers.has('accept'))
      request.headers.set('accept', 'application/json, */*;q=0.8');
    let response: Response;
    try {
      response = await this.settings.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        signal: context.signal,
        redirect: 'follow',
      });
    } catch (cause) {
      if (context.signal.aborted) throw cause;
      return {
        error: {
          code: 'HTTP_REQUEST_FAILED',
          message: `${request.method} ${request.url.origin}${request.url.pathname} failed: ${
            cause instanceof Error
              ? ((cause.cause as Error | undefined)?.message ?? cause.message)
              : String(cause)
          }`,
        },
      };
    }
    const body = await readBody(response, this.settings.maxResponseBytes);
    if (response.ok) return body.value;
    return {
      error: {
        code: 'HTTP_ERROR',
        status: response.status,
        message:
          `${request.method} ${request.url.pathname} answered ${response.status} ${response.statusText}`.trim(),
        body: body.value,
      },
    };
  }
}

async function readBody(response: Response, maxBytes: number): Promise<{ value: unknown }> {
  if (response.status === 204 || response.body === null)
    return { value: { status: response.status } };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.length > maxBytes) {
      chunks.push(value.subarray(0, maxBytes - size));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.length;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (truncated) return { value: { status: response.status, truncated: true, text } };
  const type = response.headers.get('content-type') ?? '';
  if (/json/i.test(type) && text.trim() !== '') {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return { value: { status: response.status, text } };
    }
  }
  return { value: text === '' ? { status: response.status } : { status: response.status, text } };
}
