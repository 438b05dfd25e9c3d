export { createProviderHttpClient } from './create-provider-http-client';
export type { ProviderHttpSettings } from './provider-http-settings';
export { resolveApiKey } from './resolve-api-key';
