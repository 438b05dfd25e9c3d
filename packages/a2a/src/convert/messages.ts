import { randomUUID } from 'node:crypto';

import type { Content, Event } from '@adk/core';

import type { A2aMessage, A2aRole } from '../protocol/types';
import { AdkMetadataKey } from './metadata-keys';
import { toA2aParts, toAdkParts } from './parts';

/** Where a converted message belongs. */
export interface MessageAddress {
  contextId?: string;
  taskId?: string;
}

/**
 * An ADK content as an A2A message with a fresh `messageId`; `undefined` when no part converts.
 *
 * @example
 * ```ts
 * const message = contentToA2aMessage(userContent('Weather in Paris?'), 'user', { contextId });
 * ```
 */
export function contentToA2aMessage(
  content: Content,
  role: A2aRole,
  address: MessageAddress = {},
  longRunningToolIds: readonly string[] = [],
): A2aMessage | undefined {
  const parts = toA2aParts(content.parts, longRunningToolIds);
  if (parts.length === 0) return undefined;
  const message: A2aMessage = { kind: 'message', messageId: randomUUID(), role, parts };
  if (address.contextId !== undefined) message.contextId = address.contextId;
  if (address.taskId !== undefined) message.taskId = address.taskId;
  return message;
}

/**
 * An ADK event as an A2A message (`agent` role unless the user wrote it), carrying the event's
 * author, id and invocation in `adk_` metadata; `undefined` for events without content to carry.
 */
export function eventToA2aMessage(
  event: Event,
  address: MessageAddress = {},
): A2aMessage | undefined {
  if (!event.content) return undefined;
  const message = contentToA2aMessage(
    event.content,
    event.author === 'user' ? 'user' : 'agent',
    address,
    event.longRunningToolIds,
  );
  if (!message) return undefined;
  message.metadata = {
    [AdkMetadataKey.author]: event.author,
    [AdkMetadataKey.eventId]: event.id,
    [AdkMetadataKey.invocationId]: event.invocationId,
  };
  if (event.branch !== undefined) message.metadata[AdkMetadataKey.branch] = event.branch;
  return message;
}

/** An A2A message as ADK content (`user` role for `user` messages, else `model`). */
export function a2aMessageToContent(message: A2aMessage): {
  content: Content;
  longRunningToolIds: string[];
} {
  const { parts, longRunningToolIds } = toAdkParts(message.parts);
  return {
    content: { role: message.role === 'user' ? 'user' : 'model', parts },
    longRunningToolIds,
  };
}
