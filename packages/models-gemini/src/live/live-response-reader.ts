import type { LlmResponse, Part, Transcription, UsageMetadata } from '@adk/core';
import { newFunctionCallId } from '@adk/model-http';

import { toPart } from '../convert/from-gemini-response';
import type {
  GeminiLiveServerContent,
  GeminiLiveServerMessage,
  GeminiLiveUsageMetadata,
} from './gemini-live-wire';

type TranscriptionKey = 'inputTranscription' | 'outputTranscription';

/**
 * Turns Live API server messages into {@link LlmResponse}s, keeping what spans messages:
 *
 * - model text and audio: `partial: true` deltas; the text of a turn also comes whole
 *   (`partial` unset) when the turn completes, is interrupted, or a tool call arrives;
 * - transcriptions: `partial: true` pieces, then the whole utterance with `finished: true` when the
 *   service says it is finished, or at `generationComplete` / `turnComplete` / `interrupted` (the
 *   service does not always send `finished`);
 * - `interrupted`, `turnComplete` (with the turn's usage when it comes in the same message), usage
 *   alone otherwise, `toolCall` as `functionCall` parts (at once, so tools run while audio
 *   streams), `toolCallCancellation` as `customMetadata.toolCallCancellation.ids`,
 *   `sessionResumptionUpdate` and `goAway`.
 */
export class LiveResponseReader {
  private text = '';
  private thought = false;
  private readonly heard: Record<TranscriptionKey, string> = {
    inputTranscription: '',
    outputTranscription: '',
  };

  /** The responses of one server message, in order. */
  read(message: GeminiLiveServerMessage): LlmResponse[] {
    const out: LlmResponse[] = [];
    const content = message.serverContent;
    let usage = message.usageMetadata ? toUsage(message.usageMetadata) : undefined;
    if (usage && !content?.turnComplete) {
      out.push({ usageMetadata: usage });
      usage = undefined;
    }
    if (content) this.readContent(content, usage, out);
    const calls = message.toolCall?.functionCalls ?? [];
    if (calls.length > 0) {
      this.flushText(out);
      const parts: Part[] = calls.map((call) => ({
        functionCall: {
          id: call.id ?? newFunctionCallId(),
          name: call.name ?? '',
          args: call.args ?? {},
        },
      }));
      out.push({ content: { role: 'model', parts } });
    }
    const cancelled = message.toolCallCancellation?.ids;
    if (cancelled?.length)
      out.push({ customMetadata: { toolCallCancellation: { ids: [...cancelled] } } });
    const update = message.sessionResumptionUpdate;
    if (update && (update.newHandle !== undefined || update.resumable !== undefined)) {
      const liveSessionResumptionUpdate: LlmResponse['liveSessionResumptionUpdate'] = {};
      if (update.newHandle !== undefined) liveSessionResumptionUpdate.newHandle = update.newHandle;
      if (update.resumable !== undefined) liveSessionResumptionUpdate.resumable = update.resumable;
      out.push({ liveSessionResumptionUpdate });
    }
    if (message.goAway) {
      const timeLeftMs = parseDurationMs(message.goAway.timeLeft);
      out.push({ goAway: timeLeftMs === undefined ? {} : { timeLeftMs } });
    }
    return out;
  }

  private readContent(
    content: GeminiLiveServerContent,
    usage: UsageMetadata | undefined,
    out: LlmResponse[],
  ): void {
    const parts = (content.modelTurn?.parts ?? [])
      .map(toPart)
      .filter((part): part is Part => part !== undefined);
    const deltas: Part[] = [];
    for (const part of parts) {
      if (part.text !== undefined && !part.thoughtSignature) {
        if (this.text && Boolean(part.thought) !== this.thought) this.flushText(out, deltas);
        this.text += part.text;
        this.thought = Boolean(part.thought);
        deltas.push(part);
      } else if (part.inlineData) {
        deltas.push(part);
      } else {
        this.flushText(out, deltas);
        out.push({ content: { role: 'model', parts: [part] } });
      }
    }
    if (deltas.length > 0) out.push({ content: { role: 'model', parts: deltas }, partial: true });
    this.readTranscription('inputTranscription', content.inputTranscription, out);
    this.readTranscription('outputTranscription', content.outputTranscription, out);
    const ends = content.interrupted || content.turnComplete || content.generationComplete;
    if (ends) {
      this.flushTranscription('inputTranscription', out);
      this.flushTranscription('outputTranscription', out);
    }
    if (content.interrupted || content.turnComplete) this.flushText(out);
    if (content.turnComplete) {
      const done: LlmResponse = { turnComplete: true };
      if (content.interrupted) done.interrupted = true;
      if (usage) done.usageMetadata = usage;
      if (content.groundingMetadata)
        done.customMetadata = { groundingMetadata: content.groundingMetadata };
      out.push(done);
    } else if (content.interrupted) {
      out.push({ interrupted: true });
    }
  }

  private readTranscription(
    key: TranscriptionKey,
    piece: { text?: string; finished?: boolean } | undefined,
    out: LlmResponse[],
  ): void {
    if (!piece) return;
    if (piece.text) {
      this.heard[key] += piece.text;
      out.push({ [key]: { text: piece.text, finished: false }, partial: true });
    }
    if (piece.finished) this.flushTranscription(key, out);
  }

  private flushTranscription(key: TranscriptionKey, out: LlmResponse[]): void {
    if (!this.heard[key]) return;
    const whole: Transcription = { text: this.heard[key], finished: true };
    this.heard[key] = '';
    out.push({ [key]: whole });
  }

  /** Emits the text gathered so far as one whole response (before `pending` deltas, if any). */
  private flushText(out: LlmResponse[], pending?: Part[]): void {
    if (pending && pending.length > 0) {
      out.push({ content: { role: 'model', parts: pending.splice(0) }, partial: true });
    }
    if (!this.text) return;
    const part: Part = { text: this.text };
    if (this.thought) part.thought = true;
    out.push({ content: { role: 'model', parts: [part] } });
    this.text = '';
    this.thought = false;
  }
}

function toUsage(usage: GeminiLiveUsageMetadata): UsageMetadata {
  const out: UsageMetadata = {};
  if (usage.promptTokenCount !== undefined) out.promptTokenCount = usage.promptTokenCount;
  const response = usage.responseTokenCount ?? usage.candidatesTokenCount;
  if (response !== undefined) out.candidatesTokenCount = response;
  if (usage.totalTokenCount !== undefined) out.totalTokenCount = usage.totalTokenCount;
  if (usage.cachedContentTokenCount !== undefined)
    out.cachedContentTokenCount = usage.cachedContentTokenCount;
  if (usage.thoughtsTokenCount !== undefined) out.thoughtsTokenCount = usage.thoughtsTokenCount;
  return out;
}

/** Milliseconds of a protobuf JSON duration (`"10s"`, `"1.5s"`), or undefined. */
export function parseDurationMs(duration: string | undefined): number | undefined {
  const match = duration === undefined ? null : /^(\d+(?:\.\d+)?)s$/.exec(duration.trim());
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}
