export {
  A2aClient,
  type A2aCallOptions,
  type A2aClientOptions,
  type A2aSendParams,
  type A2aTransportName,
} from './a2a-client';
