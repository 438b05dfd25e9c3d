import { randomUUID } from 'node:crypto';

/** Prefix of the function call ids ADK invents when a provider sends none (Gemini). */
export const CLIENT_FUNCTION_CALL_ID_PREFIX = 'adk-';

/** A new client-side function call id, `adk-<uuid>`. */
export function newFunctionCallId(): string {
  return `${CLIENT_FUNCTION_CALL_ID_PREFIX}${randomUUID()}`;
}

/** True for ids made by {@link newFunctionCallId}, which must not be sent back to the provider. */
export function isClientFunctionCallId(id: string | undefined): boolean {
  return id !== undefined && id.startsWith(CLIENT_FUNCTION_CALL_ID_PREFIX);
}
