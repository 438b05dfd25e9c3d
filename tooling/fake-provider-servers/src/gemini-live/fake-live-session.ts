import type { WebSocket } from 'ws';

import type { FakeLiveConnection, FakeLiveTurn } from './fake-live-types';
import {
  liveUsage,
  pcmChunk,
  setupModelProblem,
  toDuration,
  wordPieces,
  type LiveServerMessage,
} from './live-wire-messages';

/** What a session needs from its server: the shared script, resumption handles, frame style. */
export interface FakeLiveSessionHost {
  nextTurn(): FakeLiveTurn | undefined;
  issueHandle(): string;
  knowsHandle(handle: string): boolean;
  respondAfterAudioChunks: number;
  holdSetup: boolean;
  rejectSetup: { code: number; reason: string } | undefined;
  textFrames: boolean;
  onMessage(connection: FakeLiveConnection): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One connection of the fake Gemini Live server: checks `setup`, then plays scripted turns when
 * the user ends a turn, interrupts a spoken answer when the user talks over it, waits for tool
 * responses and issues resumption handles.
 */
export class FakeLiveSession {
  private setupDone = false;
  private speaking: { interrupted: boolean } | undefined;
  private pendingCallIds: Set<string> | undefined;
  private audioChunks = 0;
  private callCounter = 0;

  constructor(
    private readonly socket: WebSocket,
    private readonly record: FakeLiveConnection,
    private readonly host: FakeLiveSessionHost,
  ) {}

  /** Handles one client frame. */
  handle(data: Buffer): void {
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(data.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new TypeError('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      this.closeWith(1007, 'Invalid JSON payload received.');
      return;
    }
    if (!this.setupDone && !this.record.setup) {
      this.onSetup(body);
      return;
    }
    const type =
      ['clientContent', 'realtimeInput', 'toolResponse'].find((key) => key in body) ?? 'unknown';
    this.record.messages.push({ type, body });
    this.host.onMessage(this.record);
    if (!this.setupDone) return;
    if (type === 'clientContent')
      this.onClientContent(body.clientContent as Record<string, unknown>);
    else if (type === 'realtimeInput')
      this.onRealtimeInput(body.realtimeInput as Record<string, unknown>);
    else if (type === 'toolResponse')
      this.onToolResponse(body.toolResponse as Record<string, unknown>);
    else
      this.closeWith(
        1007,
        `Invalid JSON payload received. Unknown message: ${Object.keys(body).join(', ')}`,
      );
  }

  private onSetup(body: Record<string, unknown>): void {
    const setup = body.setup as Record<string, unknown> | undefined;
    if (!setup || typeof setup !== 'object') {
      this.closeWith(1007, 'Invalid JSON payload received. The first message must be "setup".');
      return;
    }
    this.record.setup = setup;
    this.host.onMessage(this.record);
    const problem = setupModelProblem(setup.model, this.record.backend);
    if (problem) return this.closeWith(1008, problem);
    if (this.host.rejectSetup)
      return this.closeWith(this.host.rejectSetup.code, this.host.rejectSetup.reason);
    const resumption = setup.sessionResumption as { handle?: string } | undefined;
    if (resumption?.handle) {
      if (!this.host.knowsHandle(resumption.handle))
        return this.closeWith(1008, 'Invalid session resumption handle.');
      this.record.resumedFrom = resumption.handle;
    }
    if (this.host.holdSetup) return;
    this.setupDone = true;
    this.send({ setupComplete: {} });
    this.sendResumptionUpdate();
  }

  private onClientContent(content: Record<string, unknown>): void {
    if (content.turnComplete === true) this.startTurn();
  }

  private onRealtimeInput(input: Record<string, unknown>): void {
    const vadOff = this.automaticActivityDetectionOff();
    if ('activityStart' in input || 'activityEnd' in input) {
      if (!vadOff) {
        this.closeWith(
          1007,
          'Explicit activity control is not supported when automatic activity detection is enabled.',
        );
        return;
      }
      if ('activityStart' in input) this.bargeIn();
      else this.startTurn();
      return;
    }
    if (input.audioStreamEnd === true || typeof input.text === 'string') {
      this.startTurn();
      return;
    }
    const media = input.mediaChunks as Array<{ mimeType?: string }> | undefined;
    const audio = input.audio ?? media?.find((chunk) => chunk.mimeType?.startsWith('audio/'));
    if (!audio) return; // a video frame: only recorded
    if (this.speaking) {
      this.bargeIn();
      this.audioChunks = 1;
      return;
    }
    if (this.pendingCallIds) return;
    this.audioChunks++;
    if (!vadOff && this.audioChunks >= this.host.respondAfterAudioChunks) this.startTurn();
  }

  private onToolResponse(response: Record<string, unknown>): void {
    const answers = (response.functionResponses ?? []) as Array<{ id?: string; name?: string }>;
    const pending = this.pendingCallIds ?? new Set<string>();
    for (const answer of answers) {
      if (this.record.backend === 'gemini' && (!answer.id || !pending.has(answer.id))) {
        this.closeWith(
          1007,
          `Function response id "${answer.id ?? ''}" matches no pending function call.`,
        );
        return;
      }
      if (answer.id) pending.delete(answer.id);
    }
    if (pending.size === 0) this.pendingCallIds = undefined;
    if (!this.pendingCallIds) this.startTurn();
  }

  private bargeIn(): void {
    if (!this.speaking) return;
    this.speaking.interrupted = true;
    this.speaking = undefined;
    this.send({ serverContent: { interrupted: true } });
  }

  private startTurn(): void {
    if (this.speaking) return;
    this.audioChunks = 0;
    const turn = this.host.nextTurn();
    if (!turn) {
      this.closeWith(1011, 'fake server: no scripted turn left');
      return;
    }
    const state = { interrupted: false };
    this.speaking = state;
    this.play(turn, state).catch(() => this.socket.terminate());
  }

  private async play(turn: FakeLiveTurn, state: { interrupted: boolean }): Promise<void> {
    const setup = this.record.setup ?? {};
    if (turn.inputTranscript && setup.inputAudioTranscription) {
      const pieces = wordPieces(turn.inputTranscript);
      pieces.forEach((text, i) =>
        this.send({
          serverContent: {
            inputTranscription: { text, ...(i === pieces.length - 1 ? { finished: true } : {}) },
          },
        }),
      );
    }
    if (turn.text) {
      for (const text of wordPieces(turn.text))
        this.send({ serverContent: { modelTurn: { parts: [{ text }] } } });
    }
    const chunks = turn.audioChunks ?? 0;
    const spoken =
      turn.outputTranscript && setup.outputAudioTranscription
        ? wordPieces(turn.outputTranscript)
        : [];
    for (let i = 0; i < chunks; i++) {
      if (state.interrupted || !this.isOpen()) return;
      const data = pcmChunk(i, turn.audioChunkBytes ?? 960);
      this.send({
        serverContent: {
          modelTurn: { parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data } }] },
        },
      });
      const share = spoken.splice(0, Math.ceil(spoken.length / (chunks - i)));
      for (const text of share) this.send({ serverContent: { outputTranscription: { text } } });
      if (turn.audioIntervalMs) await sleep(turn.audioIntervalMs);
    }
    for (const text of spoken) this.send({ serverContent: { outputTranscription: { text } } });
    if (state.interrupted || !this.isOpen()) return;
    if (turn.toolCalls?.length) {
      const functionCalls = turn.toolCalls.map((call) => ({
        id: call.id ?? `function-call-${++this.callCounter}`,
        name: call.name,
        args: call.args,
      }));
      this.pendingCallIds = new Set(functionCalls.map((call) => call.id));
      this.send({ toolCall: { functionCalls } });
      if (turn.cancelToolCalls?.length) {
        this.send({ toolCallCancellation: { ids: turn.cancelToolCalls } });
        for (const id of turn.cancelToolCalls) this.pendingCallIds.delete(id);
        if (this.pendingCallIds.size === 0) this.pendingCallIds = undefined;
      }
    }
    if (this.speaking === state) this.speaking = undefined;
    const faults = turn.faults ?? {};
    if (faults.goAwayMs !== undefined)
      this.send({ goAway: { timeLeft: toDuration(faults.goAwayMs) } });
    if (faults.malformed) {
      this.socket.send(Buffer.from('{"serverContent": {"modelTurn": '), { binary: true });
      return;
    }
    if (faults.drop) {
      this.socket.terminate();
      return;
    }
    if (faults.close) {
      this.closeWith(faults.close.code, faults.close.reason);
      return;
    }
    if (turn.toolCalls?.length && this.pendingCallIds) return; // the answer comes with the tool response
    this.send({ serverContent: { generationComplete: true } });
    const done: LiveServerMessage = { serverContent: { turnComplete: true } };
    if (turn.usage) done.usageMetadata = liveUsage(turn.usage);
    this.send(done);
    this.sendResumptionUpdate();
  }

  private sendResumptionUpdate(): void {
    if (!this.record.setup?.sessionResumption) return;
    this.send({ sessionResumptionUpdate: { newHandle: this.host.issueHandle(), resumable: true } });
  }

  private automaticActivityDetectionOff(): boolean {
    const config = this.record.setup?.realtimeInputConfig as
      { automaticActivityDetection?: { disabled?: boolean } } | undefined;
    return config?.automaticActivityDetection?.disabled === true;
  }

  private isOpen(): boolean {
    return this.socket.readyState === this.socket.OPEN;
  }

  private send(message: LiveServerMessage): void {
    if (!this.isOpen()) return;
    const text = JSON.stringify(message);
    this.socket.send(this.host.textFrames ? text : Buffer.from(text), {
      binary: !this.host.textFrames,
    });
  }

  private closeWith(code: number, reason: string): void {
    if (this.speaking) this.speaking.interrupted = true;
    if (this.isOpen()) this.socket.close(code, reason.slice(0, 120));
  }
}
