import type { Part } from '@adk/core';

import type { A2aDataPart, A2aPart } from '../protocol/types';
import { AdkDataPartType, AdkMetadataKey } from './metadata-keys';

/**
 * ADK parts as A2A parts: text (thoughts flagged `adk_thought`), inline data and file references
 * as file parts, function calls and responses as data parts typed by `adk_type` (calls listed in
 * `longRunningToolIds` flagged `adk_is_long_running`). Parts with nothing to carry are dropped.
 */
export function toA2aParts(
  parts: readonly Part[],
  longRunningToolIds: readonly string[] = [],
): A2aPart[] {
  const result: A2aPart[] = [];
  for (const part of parts) {
    const converted = toA2aPart(part, longRunningToolIds);
    if (converted) result.push(converted);
  }
  return result;
}

function toA2aPart(part: Part, longRunningToolIds: readonly string[]): A2aPart | undefined {
  if (part.text !== undefined) {
    return part.thought
      ? { kind: 'text', text: part.text, metadata: { [AdkMetadataKey.thought]: true } }
      : { kind: 'text', text: part.text };
  }
  if (part.inlineData) {
    const { data, mimeType, displayName } = part.inlineData;
    return {
      kind: 'file',
      file:
        displayName === undefined
          ? { bytes: data, mimeType }
          : { bytes: data, mimeType, name: displayName },
    };
  }
  if (part.fileData) {
    const { fileUri, mimeType, displayName } = part.fileData;
    const file: { uri: string; mimeType?: string; name?: string } = { uri: fileUri };
    if (mimeType !== undefined) file.mimeType = mimeType;
    if (displayName !== undefined) file.name = displayName;
    return { kind: 'file', file };
  }
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    const metadata: Record<string, unknown> = {
      [AdkMetadataKey.type]: AdkDataPartType.functionCall,
    };
    if (id !== undefined && longRunningToolIds.includes(id))
      metadata[AdkMetadataKey.isLongRunning] = true;
    return { kind: 'data', data: withId(id, { name, args: args ?? {} }), metadata };
  }
  if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    return {
      kind: 'data',
      data: withId(id, { name, response }),
      metadata: { [AdkMetadataKey.type]: AdkDataPartType.functionResponse },
    };
  }
  return undefined;
}

function withId(id: string | undefined, rest: Record<string, unknown>): Record<string, unknown> {
  return id === undefined ? rest : { id, ...rest };
}

/** ADK parts converted from A2A parts, and the ids of the calls flagged long-running. */
export interface ConvertedParts {
  parts: Part[];
  longRunningToolIds: string[];
}

/**
 * A2A parts as ADK parts: text (with `adk_thought` as `thought`), files as inline data or file
 * references, `adk_type` data parts as function calls and responses. Any other data part becomes a
 * text part holding its JSON, so a model can read it.
 */
export function toAdkParts(parts: readonly A2aPart[]): ConvertedParts {
  const result: Part[] = [];
  const longRunningToolIds: string[] = [];
  for (const part of parts) {
    switch (part.kind) {
      case 'text':
        result.push(
          part.metadata?.[AdkMetadataKey.thought] === true
            ? { text: part.text, thought: true }
            : { text: part.text },
        );
        break;
      case 'file':
        result.push(fileToAdkPart(part.file));
        break;
      case 'data': {
        const converted = dataToAdkPart(part);
        result.push(converted);
        const id = converted.functionCall?.id;
        if (id !== undefined && part.metadata?.[AdkMetadataKey.isLongRunning] === true) {
          longRunningToolIds.push(id);
        }
        break;
      }
      default:
        break;
    }
  }
  return { parts: result, longRunningToolIds };
}

function fileToAdkPart(file: {
  bytes?: string;
  uri?: string;
  mimeType?: string;
  name?: string;
}): Part {
  if (typeof file.bytes === 'string') {
    const blob = { mimeType: file.mimeType ?? 'application/octet-stream', data: file.bytes };
    return { inlineData: file.name === undefined ? blob : { ...blob, displayName: file.name } };
  }
  const fileData: { fileUri: string; mimeType?: string; displayName?: string } = {
    fileUri: file.uri ?? '',
  };
  if (file.mimeType !== undefined) fileData.mimeType = file.mimeType;
  if (file.name !== undefined) fileData.displayName = file.name;
  return { fileData };
}

function dataToAdkPart(part: A2aDataPart): Part {
  const type = part.metadata?.[AdkMetadataKey.type];
  const data = part.data;
  const id = typeof data.id === 'string' ? data.id : undefined;
  if (type === AdkDataPartType.functionCall && typeof data.name === 'string') {
    const args = isRecord(data.args) ? data.args : {};
    return {
      functionCall: id === undefined ? { name: data.name, args } : { id, name: data.name, args },
    };
  }
  if (type === AdkDataPartType.functionResponse && typeof data.name === 'string') {
    const response = isRecord(data.response) ? data.response : { result: data.response };
    return {
      functionResponse:
        id === undefined ? { name: data.name, response } : { id, name: data.name, response },
    };
  }
  return { text: JSON.stringify(data) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
