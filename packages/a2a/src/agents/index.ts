export {
  RemoteA2aAgent,
  RemoteTaskErrorCode,
  remoteStateKeys,
  type RemoteA2aAgentOptions,
} from './remote-a2a-agent';
