/**
 * How a protected resource expects to be called: the OpenAPI 3 security schemes (JSON field names
 * as in OpenAPI, `type` and `in` included), plus OpenID Connect with its endpoints given inline,
 * as the official ADKs accept them.
 */

/** An API key sent in a header, a query parameter or a cookie. */
export interface ApiKeyAuthScheme {
  type: 'apiKey';
  /** Name of the header, query parameter or cookie. */
  name: string;
  in: 'header' | 'query' | 'cookie';
  description?: string;
}

/** HTTP authentication (`bearer`, `basic`, ...). */
export interface HttpAuthScheme {
  type: 'http';
  scheme: string;
  bearerFormat?: string;
  description?: string;
}

/** One OAuth 2.0 flow: its endpoints and the scopes it offers (scope to description). */
export interface OAuthFlow {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: Record<string, string>;
}

/** OAuth 2.0 with its flows. */
export interface OAuth2AuthScheme {
  type: 'oauth2';
  flows: {
    implicit?: OAuthFlow;
    password?: OAuthFlow;
    clientCredentials?: OAuthFlow;
    authorizationCode?: OAuthFlow;
  };
  description?: string;
}

/** OpenID Connect, discovered from `openIdConnectUrl`. */
export interface OpenIdConnectAuthScheme {
  type: 'openIdConnect';
  openIdConnectUrl: string;
  description?: string;
}

/** OpenID Connect with its endpoints given inline (no discovery). */
export interface OpenIdConnectWithConfig {
  type: 'openIdConnect';
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint?: string;
  revocationEndpoint?: string;
  tokenEndpointAuthMethodsSupported?: string[];
  grantTypesSupported?: string[];
  scopes?: string[];
  description?: string;
}

/** Every scheme a tool can declare. */
export type AuthScheme =
  | ApiKeyAuthScheme
  | HttpAuthScheme
  | OAuth2AuthScheme
  | OpenIdConnectAuthScheme
  | OpenIdConnectWithConfig;
