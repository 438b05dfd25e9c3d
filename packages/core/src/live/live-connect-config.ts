import type { RunConfig } from '../context/run-config';
import type { Event } from '../events';
import type { LiveConnectConfig } from '../models';

/**
 * The {@link LiveConnectConfig} of a live run: the live members of `runConfig`, with `handle`
 * (a stored or freshly received resumption handle) in `sessionResumption` when resumption is on.
 */
export function liveConnectConfigOf(
  runConfig: RunConfig,
  handle: string | undefined,
): LiveConnectConfig {
  const config: LiveConnectConfig = {};
  if (runConfig.responseModalities) config.responseModalities = [...runConfig.responseModalities];
  if (runConfig.speechConfig) config.speechConfig = runConfig.speechConfig;
  if (runConfig.inputAudioTranscription)
    config.inputAudioTranscription = runConfig.inputAudioTranscription;
  if (runConfig.outputAudioTranscription)
    config.outputAudioTranscription = runConfig.outputAudioTranscription;
  if (runConfig.realtimeInputConfig) config.realtimeInputConfig = runConfig.realtimeInputConfig;
  if (runConfig.contextWindowCompression)
    config.contextWindowCompression = runConfig.contextWindowCompression;
  if (runConfig.proactivity) config.proactivity = runConfig.proactivity;
  if (runConfig.enableAffectiveDialog !== undefined)
    config.enableAffectiveDialog = runConfig.enableAffectiveDialog;
  if (runConfig.sessionResumption) {
    config.sessionResumption = { ...runConfig.sessionResumption };
    if (handle !== undefined) config.sessionResumption.handle = handle;
  }
  return config;
}

/**
 * The resumption handle a new live run on this session continues from: the latest stored
 * `liveSessionResumptionUpdate.newHandle`, provided nothing of another invocation was stored
 * after it (a text turn since then is unknown to the provider's session, so the run starts a
 * fresh connection with the whole history instead).
 */
export function storedResumptionHandle(events: readonly Event[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    const update = event.liveSessionResumptionUpdate;
    if (update?.newHandle === undefined || update.resumable === false) continue;
    for (let later = index + 1; later < events.length; later++) {
      if ((events[later] as Event).invocationId !== event.invocationId) return undefined;
    }
    return update.newHandle;
  }
  return undefined;
}
