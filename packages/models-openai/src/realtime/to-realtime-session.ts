import { InvalidArgumentError, type LlmRequest, type RealtimeInputConfig } from '@adk/core';

import { REALTIME_PCM_RATE } from './pcm-resampler';
import type { RealtimeSessionConfig, RealtimeTurnDetection } from './realtime-wire';

/** Transcription model used when input transcription is on and none is configured. */
export const OPENAI_REALTIME_TRANSCRIPTION_MODEL = 'gpt-4o-mini-transcribe';

/**
 * Builds the `session.update` session of a live connection from the request and its
 * `liveConnectConfig`:
 * - `systemInstruction` → `instructions`; function declarations → `tools`; `toolChoice` →
 *   `tool_choice`; `maxOutputTokens` → `max_output_tokens`;
 * - `responseModalities` → `output_modalities` (one of `audio`, `text`);
 * - `speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName` → `audio.output.voice`;
 *   `speechConfig.languageCode` → the input transcription's `language` (ISO-639-1);
 * - `inputAudioTranscription` → `audio.input.transcription`;
 * - `realtimeInputConfig.automaticActivityDetection.disabled` → `turn_detection: null`, else
 *   `server_vad` with the silence / padding / sensitivity settings, and `activityHandling:
 *   NO_INTERRUPTION` → `interrupt_response: false`;
 * - `contextWindowCompression` → `truncation` (`retention_ratio` = target / trigger tokens);
 * - audio formats: PCM16 at 24 kHz both ways (input audio is resampled to it).
 *
 * `providerOptions.openaiRealtime` is merged last (objects key by key), for anything else the API
 * takes (`semantic_vad`, `noise_reduction`, a transcription `prompt`...).
 */
export function toRealtimeSession(request: LlmRequest): RealtimeSessionConfig {
  const live = request.liveConnectConfig ?? {};
  const config = request.config ?? {};
  const modalities = live.responseModalities ?? ['AUDIO'];
  if (modalities.length !== 1) {
    throw new InvalidArgumentError({
      message: `OpenAI Realtime answers in one modality, AUDIO or TEXT; got ${JSON.stringify(modalities)}.`,
      argument: 'responseModalities',
    });
  }
  const session: RealtimeSessionConfig = {
    type: 'realtime',
    output_modalities: [modalities[0] === 'TEXT' ? 'text' : 'audio'],
  };
  if (request.systemInstruction) session.instructions = request.systemInstruction;
  const input: NonNullable<NonNullable<RealtimeSessionConfig['audio']>['input']> = {
    format: { type: 'audio/pcm', rate: REALTIME_PCM_RATE },
    turn_detection: toTurnDetection(live.realtimeInputConfig),
  };
  if (live.inputAudioTranscription) {
    const language = live.speechConfig?.languageCode?.split(/[-_]/)[0]?.toLowerCase();
    input.transcription = {
      model: OPENAI_REALTIME_TRANSCRIPTION_MODEL,
      ...(language ? { language } : {}),
    };
  }
  const output: NonNullable<NonNullable<RealtimeSessionConfig['audio']>['output']> = {
    format: { type: 'audio/pcm', rate: REALTIME_PCM_RATE },
  };
  const voice = live.speechConfig?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
  if (voice) output.voice = voice;
  session.audio = { input, output };

  const declarations = (config.tools ?? []).flatMap((group) => group.functionDeclarations);
  if (declarations.length > 0) {
    session.tools = declarations.map((declaration) => ({
      type: 'function' as const,
      name: declaration.name,
      ...(declaration.description ? { description: declaration.description } : {}),
      parameters: declaration.parameters ?? { type: 'object', properties: {} },
    }));
  }
  const choice = config.toolChoice;
  if (choice !== undefined) {
    session.tool_choice =
      typeof choice === 'string' ? choice : { type: 'function', name: choice.name };
  }
  if (config.maxOutputTokens !== undefined) session.max_output_tokens = config.maxOutputTokens;
  const compression = live.contextWindowCompression;
  if (compression) {
    const trigger = compression.triggerTokens;
    const target = compression.slidingWindow?.targetTokens;
    const ratio = trigger && target ? Math.min(1, Math.max(0.01, target / trigger)) : 0.8;
    session.truncation = {
      type: 'retention_ratio',
      retention_ratio: ratio,
      ...(trigger ? { token_limits: { post_instructions: trigger } } : {}),
    };
  }
  const extra = config.providerOptions?.openaiRealtime;
  return extra ? (merge(session, extra) as RealtimeSessionConfig) : session;
}

/** Turn detection of the session: `null` (manual activity signals) or `server_vad`. */
export function toTurnDetection(
  config: RealtimeInputConfig | undefined,
): RealtimeTurnDetection | null {
  const detection = config?.automaticActivityDetection;
  if (detection?.disabled) return null;
  const vad: RealtimeTurnDetection = {
    type: 'server_vad',
    create_response: true,
    interrupt_response: config?.activityHandling !== 'NO_INTERRUPTION',
  };
  if (detection?.startOfSpeechSensitivity === 'START_SENSITIVITY_HIGH') vad.threshold = 0.3;
  if (detection?.startOfSpeechSensitivity === 'START_SENSITIVITY_LOW') vad.threshold = 0.7;
  if (detection?.prefixPaddingMs !== undefined) vad.prefix_padding_ms = detection.prefixPaddingMs;
  if (detection?.silenceDurationMs !== undefined)
    vad.silence_duration_ms = detection.silenceDurationMs;
  else if (detection?.endOfSpeechSensitivity === 'END_SENSITIVITY_HIGH')
    vad.silence_duration_ms = 300;
  else if (detection?.endOfSpeechSensitivity === 'END_SENSITIVITY_LOW')
    vad.silence_duration_ms = 800;
  return vad;
}

function merge(
  base: Record<string, unknown>,
  extra: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const previous = out[key];
    out[key] = isObject(value) && isObject(previous) ? merge(previous, value) : value;
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
