import { InvalidArgumentError } from '../errors/invalid-argument-error';
import type { DeleteMemoriesRequest } from './memory-service';

/**
 * The checks every `deleteMemories` applies before deleting anything: `appName` and `userId` are
 * non-empty strings, and `sessionId`, when present, too. A caller's bug (an `undefined` user id)
 * must fail loudly, never widen or silently skip an erasure. Throws `InvalidArgumentError`.
 * Exported for implementers of new memory services.
 */
export function validateDeleteMemoriesRequest(request: DeleteMemoriesRequest): void {
  const fields: [keyof DeleteMemoriesRequest, unknown, boolean][] = [
    ['appName', request?.appName, true],
    ['userId', request?.userId, true],
    ['sessionId', request?.sessionId, false],
  ];
  for (const [argument, value, required] of fields) {
    if (value === undefined && !required) continue;
    if (typeof value !== 'string' || value === '') {
      throw new InvalidArgumentError({
        message: `deleteMemories needs ${argument} as a non-empty string${required ? '' : ' when given'}.`,
        argument,
      });
    }
  }
}
