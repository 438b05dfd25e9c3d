export { A2aRpcError } from './a2a-rpc-error';
export { A2aTransportError } from './a2a-transport-error';
export { AgentCardError } from './agent-card-error';
export { UnsupportedA2aDialectError } from './unsupported-a2a-dialect-error';
export { WebhookDeliveryError } from './webhook-delivery-error';
export { A2aAuthenticationError } from './a2a-authentication-error';
