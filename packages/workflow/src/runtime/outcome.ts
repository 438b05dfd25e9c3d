import type { EventActions, StoredNodeError } from '@adk/core';

import type { BaseNode } from '../nodes/base-node';
import type { InputRequest } from '../nodes/node-context';

/** @internal One execution of a node in a run. */
export interface Execution {
  node: BaseNode;
  path: string;
  input: unknown;
  /** The input is the user's message that started the run. */
  fromUser: boolean;
}

/** @internal How an execution ended. `stored`: read back from the session, not run now. */
export type Outcome =
  | {
      kind: 'output';
      output: unknown;
      routes: readonly string[];
      attempts: number;
      actions: EventActions | undefined;
      error: StoredNodeError | undefined;
      stored: boolean;
    }
  | {
      kind: 'interrupt';
      /** Requests the node made itself (emitted as `adk_request_input` calls). */
      requests: Array<InputRequest & { id: string }>;
      requestIds: string[];
      /** False when the node waits on calls of an agent or a dynamic node it ran. */
      own: boolean;
      /** The node waits for the user's next message. */
      awaitsMessage: boolean;
      /** The route the node set before it paused (followed once the answer is its output). */
      routes: readonly string[];
      attempts: number;
      actions: EventActions | undefined;
      stored: boolean;
    };
