import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.TemplateVariableError');

/** An instruction template names a required variable (`{name}`, `{artifact.x}`) that has no value. Mark it optional with `{name?}` to render it as an empty string instead. */
export class TemplateVariableError extends AdkError {
  private readonly [MARKER] = true;
  readonly variable: string;

  constructor(options: { variable: string; message?: string; cause?: unknown }) {
    super('TemplateVariableError', 'TEMPLATE_VARIABLE_MISSING', {
      message:
        options.message ??
        `Instruction template variable "{${options.variable}}" has no value in state. Set it, or write "{${options.variable}?}" to make it optional.`,
      cause: options.cause,
    });
    this.variable = options.variable;
  }

  static override isInstance(error: unknown): error is TemplateVariableError {
    return AdkError.hasMarker(error, MARKER);
  }
}
