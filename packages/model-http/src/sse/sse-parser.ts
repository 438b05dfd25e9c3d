/** One Server-Sent Event, as defined by the WHATWG HTML standard. */
export interface SseEvent {
  /** The `event:` field; `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last `id:` field seen, when any. */
  id?: string;
  /** The `retry:` field, in milliseconds, when present on this event. */
  retry?: number;
}

/**
 * Incremental Server-Sent Events parser. Feed it text in pieces of any size: line breaks (`\n`,
 * `\r\n` or a lone `\r`) may be split across pieces, an event may span many pieces, and several
 * events may arrive in one. Comment lines (`: ping`) are skipped; multi-line `data:` fields are
 * joined with `\n`, as the standard says.
 *
 * @example
 * ```ts
 * const parser = new SseParser();
 * for (const event of parser.push('data: {"a"')) handle(event); // nothing yet
 * for (const event of parser.push(':1}\n\n')) handle(event);    // { event: 'message', data: '{"a":1}' }
 * ```
 */
export class SseParser {
  private buffer = '';
  private pendingCarriageReturn = false;
  private started = false;
  private eventType = '';
  private dataLines: string[] = [];
  private hasData = false;
  private lastEventId: string | undefined;
  private retry: number | undefined;

  /** Parses `text` and returns the events it completes. */
  push(text: string): SseEvent[] {
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.pendingCarriageReturn && text.startsWith('\n')) text = text.slice(1);
    this.pendingCarriageReturn = false;
    this.buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer.charCodeAt(i);
      if (char !== 10 && char !== 13) continue;
      const line = this.buffer.slice(start, i);
      if (char === 13) {
        if (i + 1 === this.buffer.length) this.pendingCarriageReturn = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
      const event = this.processLine(line);
      if (event) events.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /**
   * Call when the input ends. Per the standard an event is only dispatched by a blank line, so an
   * unterminated trailing event is dropped; returns true when such a fragment was pending.
   */
  end(): { truncated: boolean } {
    const truncated = this.buffer.length > 0 || this.hasData;
    this.buffer = '';
    this.resetEvent();
    return { truncated };
  }

  private processLine(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventType = value;
        break;
      case 'data':
        this.dataLines.push(value);
        this.hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    if (!this.hasData) {
      this.resetEvent();
      return undefined;
    }
    const event: SseEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n') };
    if (this.lastEventId !== undefined) event.id = this.lastEventId;
    if (this.retry !== undefined) event.retry = this.retry;
    this.resetEvent();
    return event;
  }

  private resetEvent(): void {
    this.eventType = '';
    this.dataLines = [];
    this.hasData = false;
    this.retry = undefined;
  }
}
