import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.EvalNotFoundError');

/** An eval set, eval case or eval set result that was asked for does not exist. */
export class EvalNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly kind: 'evalSet' | 'evalCase' | 'evalSetResult';
  readonly id: string;

  constructor(options: {
    kind: 'evalSet' | 'evalCase' | 'evalSetResult';
    id: string;
    where?: string;
  }) {
    const noun = { evalSet: 'Eval set', evalCase: 'Eval case', evalSetResult: 'Eval set result' }[
      options.kind
    ];
    super('EvalNotFoundError', 'EVAL_NOT_FOUND', {
      message: `${noun} "${options.id}" was not found${options.where ? ` in ${options.where}` : ''}.`,
    });
    this.kind = options.kind;
    this.id = options.id;
  }

  static override isInstance(error: unknown): error is EvalNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
