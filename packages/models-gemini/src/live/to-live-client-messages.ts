import { InvalidArgumentError, type Content, type LiveRealtimeInput } from '@adk/core';
import { isClientFunctionCallId } from '@adk/model-http';

import { toGeminiContent } from '../convert/to-gemini-request';
import type { GeminiLiveClientMessage } from './gemini-live-wire';

const isAudio = (mimeType: string | undefined) => mimeType?.startsWith('audio/') ?? false;

/**
 * The `clientContent` message carrying earlier turns, or undefined when nothing is left to send.
 * Audio parts are left out (the Live API refuses audio in client content; its transcription
 * stands for it), and the model is asked to answer only when the last turn is the user's.
 */
export function toHistoryMessage(history: readonly Content[]): GeminiLiveClientMessage | undefined {
  const turns = history
    .map((content) => ({
      ...content,
      parts: content.parts.filter((part) => !isAudio(part.inlineData?.mimeType)),
    }))
    .map(toGeminiContent)
    .filter((content) => (content.parts?.length ?? 0) > 0);
  if (turns.length === 0) return undefined;
  return { clientContent: { turns, turnComplete: turns[turns.length - 1]!.role === 'user' } };
}

/**
 * The messages of one whole turn: `functionResponse` parts go out as one `toolResponse` (with the
 * ids of the calls they answer), any other parts as `clientContent` that completes the turn.
 */
export function toContentMessages(content: Content): GeminiLiveClientMessage[] {
  const messages: GeminiLiveClientMessage[] = [];
  const responses = content.parts.flatMap((part) =>
    part.functionResponse ? [part.functionResponse] : [],
  );
  if (responses.length > 0) {
    messages.push({
      toolResponse: {
        functionResponses: responses.map(({ id, name, response }) =>
          id && !isClientFunctionCallId(id) ? { id, name, response } : { name, response },
        ),
      },
    });
  }
  const rest = toGeminiContent({
    role: content.role ?? 'user',
    parts: content.parts.filter((part) => !part.functionResponse),
  });
  if ((rest.parts?.length ?? 0) > 0) {
    messages.push({ clientContent: { turns: [rest], turnComplete: true } });
  }
  return messages;
}

/**
 * The `realtimeInput` message of a media chunk or an activity signal: `audio/*` blobs as `audio`,
 * `image/*` and `video/*` as `video` (the current field names; `mediaChunks` is deprecated).
 *
 * @throws {InvalidArgumentError} for a blob of another MIME type.
 */
export function toRealtimeMessage(input: LiveRealtimeInput): GeminiLiveClientMessage {
  if ('activityStart' in input) return { realtimeInput: { activityStart: {} } };
  if ('activityEnd' in input) return { realtimeInput: { activityEnd: {} } };
  const { mimeType, data } = input.blob;
  if (isAudio(mimeType)) return { realtimeInput: { audio: { mimeType, data } } };
  if (mimeType.startsWith('image/') || mimeType.startsWith('video/')) {
    return { realtimeInput: { video: { mimeType, data } } };
  }
  throw new InvalidArgumentError({
    argument: 'blob.mimeType',
    message: `The Gemini Live API takes audio (audio/pcm;rate=16000) and image/video frames as realtime input, not "${mimeType}".`,
  });
}
