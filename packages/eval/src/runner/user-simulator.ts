import type { Content, Model } from '@adk/core';

import { askJudge } from '../metrics/judge-call';
import { textOf } from '../metrics/invocation-text';
import type { ConversationScenario, Invocation } from '../schema';

/** What the simulated user does next. */
export type UserSimulatorStep =
  { status: 'continue'; content: Content } | { status: 'stop'; reason: string };

/** Plays the user of a {@link ConversationScenario}, one message at a time. */
export interface UserSimulator {
  next(
    scenario: ConversationScenario,
    history: readonly Invocation[],
    signal?: AbortSignal,
  ): Promise<UserSimulatorStep>;
}

/** The marker the simulator's model answers with once the plan is done (Python's). */
export const FINISHED_MARKER = '</finished>';

/**
 * A user simulated by an LLM, as Python ADK's `LlmBackedUserSimulator`: the first message is the
 * scenario's `startingPrompt`; then the model, given the plan and the conversation so far, writes
 * the user's next message, or `</finished>` once the plan is done. Stops after
 * `maxAllowedInvocations` turns (default 20).
 */
export class LlmUserSimulator implements UserSimulator {
  readonly #model: Model;
  readonly #maxAllowedInvocations: number;
  readonly #config: Record<string, unknown> | undefined;

  constructor(options: {
    model: Model;
    maxAllowedInvocations?: number;
    config?: Record<string, unknown>;
  }) {
    this.#model = options.model;
    this.#maxAllowedInvocations = options.maxAllowedInvocations ?? 20;
    this.#config = options.config;
  }

  async next(
    scenario: ConversationScenario,
    history: readonly Invocation[],
    signal?: AbortSignal,
  ): Promise<UserSimulatorStep> {
    if (history.length === 0) {
      return {
        status: 'continue',
        content: { role: 'user', parts: [{ text: scenario.startingPrompt }] },
      };
    }
    if (history.length >= this.#maxAllowedInvocations) {
      return { status: 'stop', reason: `reached ${this.#maxAllowedInvocations} invocations` };
    }
    const transcript = history
      .map((turn) => `user: ${textOf(turn.userContent)}\nagent: ${textOf(turn.finalResponse)}`)
      .join('\n\n');
    const prompt = [
      'You play the user in a conversation with an AI agent. Follow the plan below, one step per',
      'message, and write only what the user says next, in their voice. Do not help the agent.',
      `When every step of the plan is done (or the agent cannot help), answer exactly ${FINISHED_MARKER}.`,
      '',
      `Plan:\n${scenario.conversationPlan}`,
      '',
      `Conversation so far:\n${transcript}`,
    ].join('\n');
    const reply = (await askJudge(this.#model, prompt, this.#config, signal)).trim();
    if (reply === '' || reply.includes(FINISHED_MARKER)) {
      return { status: 'stop', reason: reply === '' ? 'empty reply' : 'plan finished' };
    }
    return { status: 'continue', content: { role: 'user', parts: [{ text: reply }] } };
  }
}
