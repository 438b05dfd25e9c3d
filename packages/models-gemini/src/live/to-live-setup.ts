import { InvalidArgumentError, type LlmRequest } from '@adk/core';

import { toGeminiRequest } from '../convert/to-gemini-request';
import type { GeminiLiveSetup } from './gemini-live-wire';

/**
 * Builds the Live API `setup` message of a request: the model resource name, the generation
 * settings (plus `responseModalities`, `speechConfig` and `enableAffectiveDialog` from the live
 * settings), the system instruction, the tool declarations, and the live-only settings of
 * {@link LlmRequest.liveConnectConfig} (transcription, realtime input, session resumption, context
 * window compression, proactivity) as given.
 *
 * @throws {InvalidArgumentError} for `sessionResumption.transparent` outside Vertex AI.
 */
export function toLiveSetup(
  request: LlmRequest,
  options: { model: string; vertex: boolean },
): GeminiLiveSetup {
  const body = toGeminiRequest(request, { vertex: options.vertex });
  const live = request.liveConnectConfig ?? {};
  const setup: GeminiLiveSetup = { model: options.model };
  const generationConfig: Record<string, unknown> = { ...body.generationConfig };
  if (live.responseModalities) generationConfig.responseModalities = [...live.responseModalities];
  if (live.speechConfig) generationConfig.speechConfig = live.speechConfig;
  if (live.enableAffectiveDialog !== undefined)
    generationConfig.enableAffectiveDialog = live.enableAffectiveDialog;
  if (Object.keys(generationConfig).length > 0) setup.generationConfig = generationConfig;
  if (body.systemInstruction) setup.systemInstruction = body.systemInstruction;
  if (body.tools) setup.tools = body.tools;
  if (live.inputAudioTranscription) setup.inputAudioTranscription = {};
  if (live.outputAudioTranscription) setup.outputAudioTranscription = {};
  if (live.realtimeInputConfig) setup.realtimeInputConfig = { ...live.realtimeInputConfig };
  if (live.sessionResumption) {
    if (live.sessionResumption.transparent !== undefined && !options.vertex) {
      throw new InvalidArgumentError({
        argument: 'liveConnectConfig.sessionResumption.transparent',
        message:
          'Transparent session resumption is a Vertex AI feature; the Gemini API refuses it. Remove `transparent` or use `vertexai`.',
      });
    }
    setup.sessionResumption = { ...live.sessionResumption };
  }
  if (live.contextWindowCompression)
    setup.contextWindowCompression = { ...live.contextWindowCompression };
  if (live.proactivity) setup.proactivity = { ...live.proactivity };
  return setup;
}
