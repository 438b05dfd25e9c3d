import { InvalidArgumentError } from '@adk/core';

/** PostgreSQL error codes that mean "this value cannot be stored", not "the database failed". */
const UNSTORABLE_VALUE_CODES: Record<string, string> = {
  '22001': 'a value is longer than its column allows (ids are limited to 191 characters)',
  '22P05': 'a string holds a character PostgreSQL cannot store in JSON (\\u0000)',
  '22021': 'a string is not valid in the database encoding',
};

/**
 * Run `work`, turning a database refusal of a caller-supplied value into `InvalidArgumentError`
 * (with the driver's error as `cause`); every other error passes through unchanged. Either way the
 * statement failed as a whole, so nothing was written.
 */
export async function refusingUnstorableValues<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const reason = typeof code === 'string' ? UNSTORABLE_VALUE_CODES[code] : undefined;
    if (reason === undefined) throw error;
    throw new InvalidArgumentError({
      message: `The database refused the data: ${reason}.`,
      cause: error,
    });
  }
}
