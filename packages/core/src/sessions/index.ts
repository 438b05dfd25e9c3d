export {
  applyAppendToSession,
  copyEventForStorage,
  copyValidEventForStorage,
  deepFreeze,
  nextUpdateTime,
  requireId,
  stateDeltaOf,
  validateCreateSessionRequest,
  validateEventForAppend,
} from './append-helpers';
export { selectEventWindow, validateEventWindow } from './event-window';
export {
  InMemorySessionService,
  type InMemorySessionServiceOptions,
} from './in-memory-session-service';
export { StatePrefix, type Session } from './session';
export type {
  AppendEventRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  SessionService,
} from './session-service';
export {
  hasKeys,
  isTempKey,
  mergeStateViews,
  removeTempKeys,
  splitStateDelta,
  type ScopedStateDelta,
} from './state';
