export { AdkError, type AdkErrorOptions } from './adk-error';
export { InvalidArgumentError } from './invalid-argument-error';
export { SessionExistsError } from './session-exists-error';
export { SessionNotFoundError } from './session-not-found-error';
export { StaleSessionError } from './stale-session-error';
