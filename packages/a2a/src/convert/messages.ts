import { randomUUID } from 'node:crypto';

import type { Content, Event } from '@adk/core';
import { Role, type Message } from '@a2a-js/sdk';

import { AdkMetadataKey } from './metadata-keys';
import { toA2aParts, toAdkParts } from './parts';

/** Where a converted message belongs. */
export interface MessageAddress {
  contextId?: string;
  taskId?: string;
}

/**
 * An ADK content as an A2A 1.0 message with a fresh `messageId`; `undefined` when no part
 * converts.
 *
 * @example
 * ```ts
 * const message = contentToA2aMessage(userContent('Weather in Paris?'), Role.ROLE_USER, { contextId });
 * ```
 */
export function contentToA2aMessage(
  content: Content,
  role: Role,
  address: MessageAddress = {},
  longRunningToolIds: readonly string[] = [],
): Message | undefined {
  const parts = toA2aParts(content.parts, longRunningToolIds);
  if (parts.length === 0) return undefined;
  return {
    messageId: randomUUID(),
    contextId: address.contextId ?? '',
    taskId: address.taskId ?? '',
    role,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * An ADK event as an A2A message (agent role unless the user wrote it), carrying the event's
 * author, id and invocation in `adk_` metadata; `undefined` for events without content to carry.
 */
export function eventToA2aMessage(event: Event, address: MessageAddress = {}): Message | undefined {
  if (!event.content) return undefined;
  const message = contentToA2aMessage(
    event.content,
    event.author === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
    address,
    event.longRunningToolIds,
  );
  if (!message) return undefined;
  const metadata: Record<string, unknown> = {
    [AdkMetadataKey.author]: event.author,
    [AdkMetadataKey.eventId]: event.id,
    [AdkMetadataKey.invocationId]: event.invocationId,
  };
  if (event.branch !== undefined) metadata[AdkMetadataKey.branch] = event.branch;
  message.metadata = metadata;
  return message;
}

/** An A2A message as ADK content (`user` role for user messages, else `model`). */
export function a2aMessageToContent(message: Pick<Message, 'role' | 'parts'>): {
  content: Content;
  longRunningToolIds: string[];
} {
  const { parts, longRunningToolIds } = toAdkParts(message.parts);
  return {
    content: { role: message.role === Role.ROLE_USER ? 'user' : 'model', parts },
    longRunningToolIds,
  };
}
