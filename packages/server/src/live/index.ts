export { LIVE_CLOSE_CODES } from './live-socket';
export { parseLiveRequest } from './parse-live-request';
