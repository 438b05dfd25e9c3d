export { authConfigForRequest, credentialKeyOf, type AuthConfig } from './auth-config';
export {
  parseAuthCredential,
  publicPartOfCredential,
  type AuthCredential,
  type AuthCredentialType,
  type HttpAuth,
  type HttpCredentials,
  type OAuth2Auth,
} from './auth-credential';
export type {
  ApiKeyAuthScheme,
  AuthScheme,
  HttpAuthScheme,
  OAuth2AuthScheme,
  OAuthFlow,
  OpenIdConnectAuthScheme,
  OpenIdConnectWithConfig,
} from './auth-scheme';
export type {
  CredentialAddress,
  CredentialService,
  SaveCredentialRequest,
} from './credential-service';
export { InMemoryCredentialService } from './in-memory-credential-service';
export { canExchangeAuthorizationCode, exchangeAuthorizationCode } from './oauth2-exchange';
export {
  ACCESS_TOKEN_EXPIRY_MARGIN_SECONDS,
  canRefreshAccessToken,
  isAccessTokenExpired,
  refreshAccessToken,
} from './oauth2-refresh';
