export { OpenApiSpecError } from './errors';
export type { ArgumentTarget, OperationSpec } from './spec/operations';
export { loadDocument, type LoadDocumentOptions, type LoadedDocument } from './spec/load-document';
export type { Authorization, OpenApiCredentials } from './tools/authorize';
export { OpenApiToolset, type OpenApiToolsetOptions } from './tools/openapi-toolset';
export { RestApiTool, type RestApiToolSettings } from './tools/rest-api-tool';
