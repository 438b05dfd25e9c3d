export { canonicalRequest, requestKey } from './canonical-request';
export { loadCassette, parseCassette, type CassetteEntry } from './cassette';
export { lineDiff } from './line-diff';
export { RecordingModel } from './recording-model';
export { ReplayModel } from './replay-model';
export { wrapAgentModels } from './wrap-agent-models';
