/**
 * The parts of an OpenAPI 3.0 / 3.1 document the toolset reads, after dereferencing (no `$ref`
 * left, though schemas may be circular).
 */
export type SchemaObject = Record<string, unknown>;

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: SchemaObject;
  content?: Record<string, { schema?: SchemaObject }>;
}

export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content?: Record<string, { schema?: SchemaObject }>;
}

export interface ServerObject {
  url: string;
  variables?: Record<string, { default: string; enum?: string[] }>;
}

export type SecurityRequirement = Record<string, string[]>;

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  security?: SecurityRequirement[];
  servers?: ServerObject[];
}

export interface PathItemObject extends Partial<Record<HttpMethod, OperationObject>> {
  parameters?: ParameterObject[];
  servers?: ServerObject[];
}

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string };
  servers?: ServerObject[];
  paths?: Record<string, PathItemObject>;
  components?: { securitySchemes?: Record<string, SchemaObject> };
  security?: SecurityRequirement[];
}
