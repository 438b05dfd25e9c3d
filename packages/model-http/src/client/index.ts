export { defaultErrorParser } from './default-error-parser';
export { HttpClient } from './http-client';
export type {
  HttpCall,
  HttpClientOptions,
  HttpJsonResponse,
  HttpStream,
  ProviderErrorInfo,
} from './http-client-options';
