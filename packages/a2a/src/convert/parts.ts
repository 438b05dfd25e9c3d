import type { Part } from '@adk/core';
import type { Part as A2aPart } from '@a2a-js/sdk';

import { AdkDataPartType, AdkMetadataKey } from './metadata-keys';

/**
 * ADK parts as A2A 1.0 parts: text (thoughts flagged `adk_thought`), inline data as `raw` file
 * content, file references as `url` parts, function calls and responses as `data` parts typed by
 * `adk_type` (calls listed in `longRunningToolIds` flagged `adk_is_long_running`). Parts with
 * nothing to carry are dropped.
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

/** An A2A part with the fields the protocol defaults left empty. */
function a2aPart(
  content: NonNullable<A2aPart['content']>,
  metadata?: Record<string, unknown>,
  file: { mediaType?: string | undefined; filename?: string | undefined } = {},
): A2aPart {
  return {
    content,
    metadata,
    mediaType: file.mediaType ?? '',
    filename: file.filename ?? '',
  };
}

function toA2aPart(part: Part, longRunningToolIds: readonly string[]): A2aPart | undefined {
  if (part.text !== undefined) {
    return a2aPart(
      { $case: 'text', value: part.text },
      part.thought ? { [AdkMetadataKey.thought]: true } : undefined,
    );
  }
  if (part.inlineData) {
    const { data, mimeType, displayName } = part.inlineData;
    return a2aPart({ $case: 'raw', value: Buffer.from(data, 'base64') }, undefined, {
      mediaType: mimeType,
      filename: displayName,
    });
  }
  if (part.fileData) {
    const { fileUri, mimeType, displayName } = part.fileData;
    return a2aPart({ $case: 'url', value: fileUri }, undefined, {
      mediaType: mimeType,
      filename: displayName,
    });
  }
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    const metadata: Record<string, unknown> = {
      [AdkMetadataKey.type]: AdkDataPartType.functionCall,
    };
    if (id !== undefined && longRunningToolIds.includes(id))
      metadata[AdkMetadataKey.isLongRunning] = true;
    return a2aPart({ $case: 'data', value: withId(id, { name, args: args ?? {} }) }, metadata);
  }
  if (part.functionResponse) {
    const { id, name, response } = part.functionResponse;
    return a2aPart(
      { $case: 'data', value: withId(id, { name, response }) },
      {
        [AdkMetadataKey.type]: AdkDataPartType.functionResponse,
      },
    );
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
 * A2A parts as ADK parts: text (with `adk_thought` as `thought`), `raw` content as inline data,
 * `url` parts as file references, `adk_type` data parts as function calls and responses. Any
 * other data part becomes a text part holding its JSON, so a model can read it.
 */
export function toAdkParts(parts: readonly A2aPart[]): ConvertedParts {
  const result: Part[] = [];
  const longRunningToolIds: string[] = [];
  for (const part of parts) {
    const content = part.content;
    switch (content?.$case) {
      case 'text':
        result.push(
          part.metadata?.[AdkMetadataKey.thought] === true
            ? { text: content.value, thought: true }
            : { text: content.value },
        );
        break;
      case 'raw': {
        const blob = {
          mimeType: part.mediaType || 'application/octet-stream',
          data: Buffer.from(content.value).toString('base64'),
        };
        result.push({ inlineData: part.filename ? { ...blob, displayName: part.filename } : blob });
        break;
      }
      case 'url': {
        const fileData: { fileUri: string; mimeType?: string; displayName?: string } = {
          fileUri: content.value,
        };
        if (part.mediaType) fileData.mimeType = part.mediaType;
        if (part.filename) fileData.displayName = part.filename;
        result.push({ fileData });
        break;
      }
      case 'data': {
        const converted = dataToAdkPart(content.value, part.metadata);
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

function dataToAdkPart(data: unknown, metadata: Record<string, unknown> | undefined): Part {
  const type = metadata?.[AdkMetadataKey.type];
  if (isRecord(data)) {
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
  }
  return { text: JSON.stringify(data) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
