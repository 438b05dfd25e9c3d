/**
 * Function names the framework itself uses to talk to the client (confirmation, credential and
 * input requests). Their calls and responses are protocol between ADK and the application: they are
 * never shown to a model.
 */
export const FRAMEWORK_FUNCTION_NAMES: ReadonlySet<string> = new Set([
  'adk_request_confirmation',
  'adk_request_credential',
  'adk_request_input',
]);

/** True when `name` is one of {@link FRAMEWORK_FUNCTION_NAMES}. */
export function isFrameworkFunction(name: string): boolean {
  return FRAMEWORK_FUNCTION_NAMES.has(name);
}
