import type { Stream } from 'node:stream';

/** Bound on the stderr kept per stdio server, in characters: enough for a stack trace. */
export const STDERR_TAIL_CHARS = 8_192;

/**
 * The last {@link STDERR_TAIL_CHARS} characters a stdio server wrote to stderr, kept to explain a
 * failed start. Memory stays bounded however much the server writes.
 */
export class StderrTail {
  #text = '';

  attach(stream: Stream | null): void {
    stream?.on('data', (chunk: Buffer | string) => {
      this.#text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      if (this.#text.length > STDERR_TAIL_CHARS) this.#text = this.#text.slice(-STDERR_TAIL_CHARS);
    });
  }

  get text(): string {
    return this.#text;
  }
}
