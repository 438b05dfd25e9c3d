import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.EvalExistsError');

/** An eval set or eval case was created with an id that is already taken. */
export class EvalExistsError extends AdkError {
  private readonly [MARKER] = true;
  readonly kind: 'evalSet' | 'evalCase';
  readonly id: string;

  constructor(options: { kind: 'evalSet' | 'evalCase'; id: string }) {
    super('EvalExistsError', 'EVAL_EXISTS', {
      message: `${options.kind === 'evalSet' ? 'Eval set' : 'Eval case'} "${options.id}" already exists.`,
    });
    this.kind = options.kind;
    this.id = options.id;
  }

  static override isInstance(error: unknown): error is EvalExistsError {
    return AdkError.hasMarker(error, MARKER);
  }
}
