import type { Part } from '@adk/core';
import { ModelStreamError, newFunctionCallId } from '@adk/model-http';

import type { GeminiFunctionCall, GeminiPart, GeminiPartialArg } from '../convert/gemini-wire';
import { formatJsonPath, parseJsonPath, type JsonPathSegment } from './json-path';

/** One argument value received in a streamed function-call chunk. */
export interface StreamedArgumentDelta {
  /** The argument's path, as the API sent it (e.g. `$.location`). */
  jsonPath: string;
  /** The value: a piece of a string (`append: true`), or a whole number, boolean or null. */
  value: string | number | boolean | null;
  /** True for a string piece appended to what came before for the same path. */
  append: boolean;
}

/**
 * Progress of a function call whose arguments Gemini streams (`streamFunctionCallArguments`),
 * carried by partial responses as `customMetadata.streamingFunctionCall`. The call itself is
 * only in the final response, with the same `id`, once all its arguments arrived.
 */
export interface StreamingFunctionCall {
  /**
   * The call's id: the provider's, or an `adk-` client id (replaced by the provider's if one comes
   * later); the final response has the last one.
   */
  id: string;
  name: string;
  /** Argument values received in this chunk. */
  deltas: StreamedArgumentDelta[];
  /** False once the call is complete. */
  willContinue: boolean;
}

interface PendingCall {
  id: string;
  /** The id the provider sent, if any (used to route chunks). */
  providerId: string | undefined;
  name: string;
  args: Record<string, unknown>;
  thoughtSignature: string | undefined;
}

/**
 * True for a function-call part that belongs to a streamed call: a chunk announcing more
 * (`willContinue`), carrying `partialArgs`, or an empty end marker (`functionCall: {}`).
 */
export function isStreamedCallPiece(call: GeminiFunctionCall): boolean {
  return (
    call.partialArgs !== undefined ||
    call.willContinue === true ||
    (!call.name && call.args === undefined)
  );
}

/**
 * Assembles function calls whose arguments arrive over several streamed chunks. A call is
 * complete at its first chunk without `willContinue`; until then nothing of it reaches the final
 * response. Chunks that cannot belong to a call in progress, argument paths that are not singular
 * JSON paths, values that clash with what came before, and a response that ends while a call is
 * still streaming throw {@link ModelStreamError} (`malformed` / `incomplete`), so a half-built call
 * is never returned.
 */
export class FunctionCallAssembler {
  private readonly open: PendingCall[] = [];

  constructor(private readonly context: { provider: string; model: string }) {}

  /**
   * Adds one streamed piece. Returns the progress to report (undefined for an end marker with no
   * call in progress) and, when the piece completes its call, the finished function-call part.
   */
  push(part: GeminiPart): { progress?: StreamingFunctionCall; completed?: Part } {
    const call = part.functionCall!;
    const pending = this.route(call, part.thoughtSignature);
    if (!pending) return {};
    const deltas = (call.partialArgs ?? []).flatMap((arg) => this.apply(pending, arg));
    const willContinue = call.willContinue === true;
    const progress: StreamingFunctionCall = {
      id: pending.id,
      name: pending.name,
      deltas,
      willContinue,
    };
    if (willContinue) return { progress };
    this.open.splice(this.open.indexOf(pending), 1);
    const completed: Part = {
      functionCall: { id: pending.id, name: pending.name, args: pending.args },
    };
    if (pending.thoughtSignature) completed.thoughtSignature = pending.thoughtSignature;
    return { progress, completed };
  }

  /** Throws when a call is still waiting for arguments (call it when the response ended). */
  finish(): void {
    const pending = this.open[0];
    if (!pending) return;
    throw new ModelStreamError({
      ...this.context,
      kind: 'incomplete',
      message: `the response ended while the arguments of function call "${pending.name}" (${pending.id}) were still streaming`,
    });
  }

  private route(call: GeminiFunctionCall, signature: string | undefined): PendingCall | undefined {
    let pending: PendingCall | undefined;
    if (call.id) {
      pending = this.open.find((candidate) => candidate.providerId === call.id);
      // A continuation that brings an id its call started without: the latest call without one,
      // which takes the provider's id (the function response must be sent back with it).
      if (!pending && !call.name) {
        pending = this.open.findLast((candidate) => candidate.providerId === undefined);
        if (pending) pending.id = pending.providerId = call.id;
      }
    } else {
      pending = this.open[this.open.length - 1];
    }
    if (pending && call.name && call.name !== pending.name) {
      if (!call.id) {
        throw this.malformed(
          `function call "${call.name}" started while "${pending.name}" (${pending.id}) was still streaming its arguments`,
          call,
        );
      }
      throw this.malformed(`function call ${call.id} changed its name`, call);
    }
    if (pending) {
      pending.thoughtSignature ??= signature;
      return pending;
    }
    if (!call.name) {
      if (!call.partialArgs?.length && !call.willContinue) return undefined; // a lone end marker
      throw this.malformed('streamed function-call arguments arrived for no call', call);
    }
    pending = {
      id: call.id || newFunctionCallId(),
      providerId: call.id || undefined,
      name: call.name,
      args: {},
      thoughtSignature: signature,
    };
    if (call.args) this.merge(pending, call.args);
    this.open.push(pending);
    return pending;
  }

  private merge(pending: PendingCall, args: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(args)) setOwn(pending.args, key, value);
  }

  private apply(pending: PendingCall, arg: GeminiPartialArg): StreamedArgumentDelta[] {
    let value: string | number | boolean | null;
    if (arg.stringValue !== undefined) value = arg.stringValue;
    else if (arg.numberValue !== undefined) value = arg.numberValue;
    else if (arg.boolValue !== undefined) value = arg.boolValue;
    else if ('nullValue' in arg) value = null;
    else return []; // a path announcement without a value
    const path = arg.jsonPath === undefined ? undefined : parseJsonPath(arg.jsonPath);
    if (!path || typeof path[0] !== 'string') {
      throw this.malformed(
        `argument path ${JSON.stringify(arg.jsonPath)} of function call "${pending.name}" is not a singular JSON path`,
        arg,
      );
    }
    const append = typeof value === 'string';
    let container: Record<string, unknown> | unknown[] = pending.args;
    for (let index = 0; index < path.length - 1; index++) {
      const segment = path[index]!;
      const next = path[index + 1]!;
      let child = read(container, segment);
      if (child === undefined) {
        if (skipsElements(container, segment)) throw this.skipped(pending, path, index, arg);
        child = typeof next === 'number' ? [] : {};
        write(container, segment, child);
      }
      if (!isContainerFor(child, next)) throw this.clash(pending, path.slice(0, index + 1), arg);
      container = child as Record<string, unknown> | unknown[];
    }
    const last = path[path.length - 1]!;
    if (!isContainerFor(container, last)) throw this.clash(pending, path.slice(0, -1), arg);
    if (skipsElements(container, last)) throw this.skipped(pending, path, path.length - 1, arg);
    const existing = read(container, last);
    if (typeof value === 'string' && existing !== undefined) {
      if (typeof existing !== 'string') throw this.clash(pending, path, arg);
      value = existing + value;
    } else if (existing !== undefined && existing !== null && typeof existing === 'object') {
      throw this.clash(pending, path, arg);
    }
    write(container, last, value);
    return [{ jsonPath: arg.jsonPath!, value: valueOf(arg), append }];
  }

  private skipped(
    pending: PendingCall,
    path: JsonPathSegment[],
    index: number,
    arg: GeminiPartialArg,
  ): ModelStreamError {
    return this.malformed(
      `argument ${arg.jsonPath} of function call "${pending.name}" skips elements of the array at ${formatJsonPath(path.slice(0, index))}`,
      arg,
    );
  }

  private clash(
    pending: PendingCall,
    path: JsonPathSegment[],
    arg: GeminiPartialArg,
  ): ModelStreamError {
    return this.malformed(
      `argument ${arg.jsonPath} of function call "${pending.name}" does not fit the value already at ${formatJsonPath(path)}`,
      arg,
    );
  }

  private malformed(message: string, chunk: unknown): ModelStreamError {
    return new ModelStreamError({
      ...this.context,
      kind: 'malformed',
      message,
      chunk: JSON.stringify(chunk),
    });
  }
}

function valueOf(arg: GeminiPartialArg): string | number | boolean | null {
  return arg.stringValue ?? arg.numberValue ?? arg.boolValue ?? null;
}

/** Arrays are streamed in order: an index past the end would leave holes. */
function skipsElements(container: object, segment: JsonPathSegment): boolean {
  return typeof segment === 'number' && segment > (container as unknown[]).length;
}

function isContainerFor(value: unknown, segment: JsonPathSegment): boolean {
  if (typeof segment === 'number') return Array.isArray(value);
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function read(container: Record<string, unknown> | unknown[], segment: JsonPathSegment): unknown {
  if (typeof segment === 'number') return (container as unknown[])[segment];
  return Object.hasOwn(container, segment)
    ? (container as Record<string, unknown>)[segment]
    : undefined;
}

function write(
  container: Record<string, unknown> | unknown[],
  segment: JsonPathSegment,
  value: unknown,
): void {
  if (typeof segment === 'number') (container as unknown[])[segment] = value;
  else setOwn(container as Record<string, unknown>, segment, value);
}

/** Sets an own property, `__proto__` included (a plain assignment would change the prototype). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
