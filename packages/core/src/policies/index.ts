export {
  confirmationCallId,
  confirmationDeadline,
  confirmationResponse,
  createConfirmationRequestEvent,
  findAnsweredConfirmations,
  parseConfirmationResponse,
  rejectedToolResponse,
  REQUEST_CONFIRMATION_FUNCTION_NAME,
  type AnsweredConfirmation,
  type ConfirmationRequest,
  type ConfirmationRequestArgs,
} from './confirmation';
export { findPendingConfirmations, type PendingConfirmation } from './confirmation-expiry';
export { ConfirmationPolicy, type ConfirmationPolicyOptions } from './confirmation-policy';
export {
  deniedToolResponse,
  evaluateInput,
  evaluateOutput,
  evaluateToolCall,
  type InputVerdict,
  type ToolVerdict,
} from './evaluate-policies';
export { InputBlocklistPolicy, type InputBlocklistOptions } from './input-blocklist-policy';
export {
  allow,
  confirm,
  deny,
  reject,
  rewrite,
  type InputDecision,
  type InputFilterRequest,
  type OutputFilterRequest,
  type Policy,
  type ToolCallRequest,
  type ToolDecision,
} from './policy';
export { RedactionPolicy, type RedactionOptions } from './redaction-policy';
export { ToolAccessPolicy, type ToolAccessOptions } from './tool-access-policy';
