import { createEvent, type Event } from '../events';

/** Who an event of a live run is by, and where it belongs. */
export interface LiveEventSource {
  invocationId: string;
  /** The agent answering (author of model-side events). */
  agentName: string;
  branch: string | undefined;
}

/**
 * The pieces of one live turn that arrive in chunks and are stored whole: the user's input
 * transcription, the model's output transcription, and model text streamed as partial deltas.
 *
 * Each stored event carries the whole text twice: as its transcription field (what Python ADK
 * stores) and as its text `content` (role `user` for the input, `model` for the output), so the
 * conversation reads back as text and a later turn (`Runner.run`, or a new live connection's
 * history) sees it with no special case in the history builder.
 */
export class LiveTranscript {
  #input = '';
  #output = '';
  #text = '';

  /** Add an input transcription chunk; `true` when there is something to flush. */
  addInput(text: string | undefined): void {
    if (text) this.#input += text;
  }

  addOutput(text: string | undefined): void {
    if (text) this.#output += text;
  }

  /** Add partial model text (a delta of a text-modality answer). */
  addText(text: string): void {
    this.#text += text;
  }

  /** The model stored a complete text answer itself: the deltas collected so far are covered. */
  dropText(): void {
    this.#text = '';
  }

  /** The stored event of the user's finished utterance, if any text was heard. */
  flushInput(source: LiveEventSource): Event | undefined {
    const text = this.#input.trim() === '' ? '' : this.#input;
    this.#input = '';
    if (text === '') return undefined;
    return createEvent({
      invocationId: source.invocationId,
      author: 'user',
      branch: source.branch,
      content: { role: 'user', parts: [{ text }] },
      inputTranscription: { text, finished: true },
    });
  }

  /** The stored events of the model's finished output: its transcription, then streamed text. */
  flushOutput(source: LiveEventSource): Event[] {
    const events: Event[] = [];
    const transcript = this.#output;
    const text = this.#text;
    this.#output = '';
    this.#text = '';
    if (transcript.trim() !== '') {
      events.push(
        createEvent({
          invocationId: source.invocationId,
          author: source.agentName,
          branch: source.branch,
          content: { role: 'model', parts: [{ text: transcript }] },
          outputTranscription: { text: transcript, finished: true },
        }),
      );
    }
    if (text.trim() !== '') {
      events.push(
        createEvent({
          invocationId: source.invocationId,
          author: source.agentName,
          branch: source.branch,
          content: { role: 'model', parts: [{ text }] },
        }),
      );
    }
    return events;
  }
}
