import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.JudgeResponseError');

/**
 * The judge model of an LLM-judged metric answered something the metric cannot read (no verdict,
 * no labelled sentence, a failed call): the metric is not evaluated and the case reports this
 * error, since reading it as a score of 0 would grade the judge rather than the agent.
 */
export class JudgeResponseError extends AdkError {
  private readonly [MARKER] = true;
  /** The metric whose judge answered (`safety_v1`, `hallucinations_v1`...). */
  readonly metricName: string;
  /** The judge's answer, as received (cut to 500 characters). */
  readonly answer: string;

  constructor(options: { metricName: string; answer: string; expected: string }) {
    const answer =
      options.answer.length > 500 ? `${options.answer.slice(0, 500)}…` : options.answer;
    super('JudgeResponseError', 'EVAL_JUDGE_RESPONSE_INVALID', {
      message: `The judge of ${options.metricName} gave no readable verdict (expected ${options.expected}); it answered: ${JSON.stringify(answer)}`,
    });
    this.metricName = options.metricName;
    this.answer = answer;
  }

  static override isInstance(error: unknown): error is JudgeResponseError {
    return AdkError.hasMarker(error, MARKER);
  }
}
