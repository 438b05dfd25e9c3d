import { ApiError } from '../api/api-error';
import { authHeaders } from '../api/client';
import type { AdkEvent } from '../api/types';
import { chatHooks, ensureSession, redrawSession, reloadSession } from '../chat/chat';
import { bubble, errorBubble, note, renderEvent } from '../chat/render-event';
import { showError } from '../panels/errors';
import { store } from '../store';
import { byId } from '../util/dom';
import { startCapture, type Capture } from './capture';
import { toBase64 } from './pcm';
import { PcmPlayer } from './playback';

/** The open live run, if any. */
interface LiveRun {
  socket: WebSocket;
  capture: Capture | undefined;
  player: PcmPlayer;
  /** The transcript being spoken, by side, until its finished utterance arrives. */
  speaking: Map<'input' | 'output', HTMLElement>;
  closed: Promise<CloseEvent>;
  sent: number;
  /** The session the run talks in. */
  sessionId: string;
}

let run: LiveRun | undefined;

const button = () => byId<HTMLButtonElement>('voice');
const messages = () => byId('messages');

function status(text: string): void {
  const node = byId('voice-status');
  node.textContent = text;
  node.hidden = !text;
}

/** Counters the page shows on the button for tests and curious people (data attributes). */
function count(): void {
  if (!run) return;
  const data = button().dataset;
  data.chunksSent = String(run.sent);
  data.audioQueued = String(run.player.queued);
  data.audioFlushed = String(run.player.flushed);
}

function scrollDown(): void {
  const box = messages();
  box.scrollTop = box.scrollHeight;
}

/** Append a transcription chunk to the live line of its side. */
function speak(side: 'input' | 'output', author: string, text: string): void {
  if (!run || !text) return;
  let node = run.speaking.get(side);
  if (!node) {
    node = bubble(side === 'input' ? 'user' : author, '', 'streaming live-transcript');
    run.speaking.set(side, node);
    messages().append(node);
  }
  node.querySelector('.text')!.textContent += text;
  scrollDown();
}

function onFrame(event: AdkEvent): void {
  if (!run) return;
  if (event.error && !event.content) {
    messages().append(errorBubble(event.errorCode, event.errorMessage ?? event.error));
    return;
  }
  if (event.interrupted) {
    run.player.flush();
    run.speaking.get('output')?.classList.remove('streaming');
    run.speaking.delete('output');
    messages().append(note('(interrupted)', 'note'));
    count();
  }
  if (event.partial) {
    for (const part of event.content?.parts ?? []) {
      if (part.inlineData?.data && part.inlineData.mimeType?.startsWith('audio/')) {
        run.player.play(part.inlineData.data, part.inlineData.mimeType);
      } else if (part.text && !part.thought) speak('output', event.author, part.text);
    }
    speak('input', 'user', event.inputTranscription?.text ?? '');
    speak('output', event.author, event.outputTranscription?.text ?? '');
    count();
    return;
  }
  // A stored event: a finished utterance replaces its live line.
  const side = event.author === 'user' ? 'input' : 'output';
  if (event.content?.parts.some((part) => part.text)) {
    run.speaking.get(side)?.remove();
    run.speaking.delete(side);
  }
  messages().append(...renderEvent(event, chatHooks));
  store.state.session?.events.push(event);
  scrollDown();
}

/** Start a live run on the open session (made if there is none): microphone in, audio out. */
async function start(): Promise<void> {
  await ensureSession();
  const player = new PcmPlayer();
  await player.resume();
  const query = new URLSearchParams({
    app_name: store.state.app,
    user_id: store.state.user || 'user',
    session_id: store.state.sessionId,
    modalities: 'AUDIO',
  });
  // A WebSocket cannot carry the Authorization header: the server takes the token in the query.
  const token = authHeaders().authorization?.replace(/^Bearer /, '');
  if (token) query.set('access_token', token);
  const socket = new WebSocket(
    `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/run_live?${query}`,
  );
  const closed = new Promise<CloseEvent>((resolve) =>
    socket.addEventListener('close', resolve, { once: true }),
  );
  const current: LiveRun = {
    socket,
    capture: undefined,
    player,
    speaking: new Map(),
    closed,
    sent: 0,
    sessionId: store.state.sessionId,
  };
  run = current;
  setButton(true);
  status('Connecting…');
  socket.addEventListener('message', (message) => {
    if (typeof message.data === 'string') onFrame(JSON.parse(message.data) as AdkEvent);
  });
  void closed.then((event) => {
    if (run === current) void finish(event);
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    void closed.then((event) =>
      reject(
        new ApiError(
          event.reason || 'The live connection closed before it opened.',
          'GET /run_live',
          undefined,
          `CLOSED_${event.code}`,
        ),
      ),
    );
  });
  current.capture = await startCapture((bytes) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(
      JSON.stringify({ blob: { mime_type: 'audio/pcm;rate=16000', data: toBase64(bytes) } }),
    );
    current.sent++;
    count();
  });
  status('Listening… (Esc or Stop voice to end)');
}

/** Ask the server to end the run; it closes the socket once everything is stored. */
async function stop(): Promise<void> {
  const current = run;
  if (!current) return;
  await current.capture?.stop();
  current.capture = undefined;
  status('Ending…');
  if (current.socket.readyState === WebSocket.OPEN) {
    current.socket.send(JSON.stringify({ close: true }));
  }
  await finish(await current.closed);
}

/** After the run: release the devices and reload the session so the transcript is stored text. */
async function finish(event: CloseEvent): Promise<void> {
  const current = run;
  if (!current) return;
  run = undefined;
  await current.capture?.stop();
  await current.player.close();
  setButton(false);
  status('');
  if (event.code !== 1000) {
    messages().append(
      errorBubble(`CLOSED_${event.code}`, event.reason || 'The live connection ended.'),
    );
  }
  await reloadSession().catch((error: unknown) => showError(error, 'Reloading the session'));
  redrawSession();
}

function setButton(on: boolean): void {
  const voice = button();
  voice.setAttribute('aria-pressed', String(on));
  voice.textContent = on ? 'Stop voice' : 'Voice';
  voice.title = on ? 'End the voice conversation' : 'Talk to the agent (microphone)';
}

/** Whether a live run is open (typed messages then go over it). */
export function liveRunning(): boolean {
  return run !== undefined;
}

/** Send typed text over the open live run. */
export function sendLiveText(text: string): void {
  if (!run || run.socket.readyState !== WebSocket.OPEN) return;
  messages().append(bubble('user', text, 'local-user'));
  run.socket.send(JSON.stringify({ content: { role: 'user', parts: [{ text }] } }));
}

/** Wire the voice button (a toggle: aria-pressed) and Esc to end a live run. */
export function setUpVoice(): void {
  store.takeText = (text) => {
    if (!liveRunning()) return false;
    if (text) sendLiveText(text);
    return true;
  };
  const voice = button();
  voice.addEventListener('click', () => {
    if (run) void stop().catch((error: unknown) => showError(error, 'Ending voice'));
    else if (!store.state.running)
      void start().catch(async (error: unknown) => {
        showError(error, 'Starting voice');
        if (run) await finish(new CloseEvent('close', { code: 1000 }));
      });
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && run) void stop();
  });
  // Another session or app on screen: the run ends (its transcript belongs to its own session).
  store.on('session', () => {
    if (run && store.state.sessionId !== run.sessionId) void stop();
  });
  store.on('running', () => {
    voice.disabled = Boolean(store.state.running);
  });
}
