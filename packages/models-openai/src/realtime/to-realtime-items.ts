import { InvalidArgumentError, type Content, type Part } from '@adk/core';
import type { FunctionCallIdPairing } from '@adk/model-http';

import { PcmResampler, pcmRate } from './pcm-resampler';
import type { RealtimeContentPart, RealtimeItem } from './realtime-wire';

/**
 * Converts one turn into Realtime conversation items, in order:
 * - user text, images (`input_image` data URLs) and PCM audio (`input_audio`, resampled to
 *   24 kHz) become one `user` message; text-only model turns become an `assistant` message with
 *   `output_text` (thoughts are not sent);
 * - function calls become `function_call` items, function responses `function_call_output` items
 *   (the response JSON as `output`), paired by id through `ids`.
 *
 * @throws InvalidArgumentError for inline data the Realtime API cannot take in a conversation
 * item (anything but images and `audio/pcm`).
 */
export function toRealtimeItems(content: Content, ids: FunctionCallIdPairing): RealtimeItem[] {
  const items: RealtimeItem[] = [];
  const model = content.role === 'model' || content.role === 'assistant';
  let parts: RealtimeContentPart[] = [];
  const flush = () => {
    if (parts.length === 0) return;
    items.push({ type: 'message', role: model ? 'assistant' : 'user', content: parts });
    parts = [];
  };
  for (const part of content.parts) {
    if (part.functionCall) {
      flush();
      items.push({
        type: 'function_call',
        call_id: ids.callId(part.functionCall),
        name: part.functionCall.name,
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      });
    } else if (part.functionResponse) {
      flush();
      items.push({
        type: 'function_call_output',
        call_id: ids.responseId(part.functionResponse),
        output: JSON.stringify(part.functionResponse.response ?? {}),
      });
    } else {
      const converted = model ? toModelPart(part) : toUserPart(part);
      if (converted) parts.push(converted);
    }
  }
  flush();
  return items;
}

function toModelPart(part: Part): RealtimeContentPart | undefined {
  // Model audio is not replayed: its transcription (stored as text) stands for it.
  if (part.text !== undefined && part.text !== '' && !part.thought)
    return { type: 'output_text', text: part.text };
  return undefined;
}

function toUserPart(part: Part): RealtimeContentPart | undefined {
  if (part.text !== undefined && part.text !== '' && !part.thought)
    return { type: 'input_text', text: part.text };
  if (part.fileData) {
    if (/^image\//.test(part.fileData.mimeType ?? '') || /^https?:/.test(part.fileData.fileUri))
      return { type: 'input_image', image_url: part.fileData.fileUri };
  }
  const blob = part.inlineData;
  if (!blob) return undefined;
  if (blob.mimeType.startsWith('image/'))
    return { type: 'input_image', image_url: `data:${blob.mimeType};base64,${blob.data}` };
  const rate = pcmRate(blob.mimeType);
  if (rate !== undefined && Number.isFinite(rate)) {
    const audio = new PcmResampler(rate).push(Buffer.from(blob.data, 'base64'));
    return { type: 'input_audio', audio: audio.toString('base64') };
  }
  throw new InvalidArgumentError({
    message: `OpenAI Realtime conversation items take text, images and audio/pcm; got inline data of type "${blob.mimeType}".`,
    argument: 'contents',
  });
}
