import { argumentsText } from './convert/from-openai-response';
import type { OpenAIToolCallFragment } from './convert/openai-wire';

/** A streamed tool call being assembled. */
interface PendingCall {
  id?: string;
  name: string;
  arguments: string;
  /** The `index` of its fragments, when the server numbers them. */
  index?: number;
}

/**
 * The tool calls of a streamed answer, assembled from their fragments. A fragment belongs to the
 * call with its `index`, unless it brings an id other than that call's (some compatible servers
 * number every call 0 and tell them apart by id): then it starts a new call. A fragment without
 * `index` belongs to the call with its id, or, without an id, to the latest call. No call is lost
 * or merged into another.
 */
export class PendingCalls {
  private readonly calls: PendingCall[] = [];
  private readonly byIndex = new Map<number, PendingCall>();

  /** Adds one fragment. */
  add(fragment: OpenAIToolCallFragment): void {
    const { index, id } = fragment;
    let call: PendingCall | undefined;
    if (index !== undefined && index !== null) {
      call = this.byIndex.get(index);
      if (call && id && call.id && id !== call.id) call = undefined;
    } else if (id) {
      call = this.calls.find((candidate) => candidate.id === id);
    } else {
      call = this.calls[this.calls.length - 1];
    }
    if (!call) {
      call = { name: '', arguments: '' };
      if (index !== undefined && index !== null) {
        call.index = index;
        this.byIndex.set(index, call);
      }
      this.calls.push(call);
    }
    if (id) call.id = id;
    if (fragment.function?.name && !call.name) call.name = fragment.function.name;
    if (fragment.function?.arguments) call.arguments += argumentsText(fragment.function.arguments);
  }

  /** The calls by `index` when each has its own, else in the order they started. */
  inOrder(): readonly PendingCall[] {
    if (this.byIndex.size !== this.calls.length) return this.calls;
    return [...this.calls].sort((a, b) => a.index! - b.index!);
  }
}
