import type { JsonSchema } from '@adk/core';

import { modelSchema } from './model-schema';
import {
  HTTP_METHODS,
  type HttpMethod,
  type OpenApiDocument,
  type ParameterObject,
  type SchemaObject,
  type SecurityRequirement,
  type ServerObject,
} from './types';

/** Where an argument of the tool goes in the HTTP request. */
export interface ArgumentTarget {
  /** The argument's name as the model sees it. */
  argument: string;
  in: 'path' | 'query' | 'header' | 'cookie' | 'body' | 'body-property';
  /** The parameter's or property's name in the request. */
  name: string;
  style?: string;
  explode?: boolean;
}

/** One operation of the document, ready to be a tool. */
export interface OperationSpec {
  /** The tool's name: the `operationId` in snake_case (at most 60 characters). */
  toolName: string;
  operationId: string | undefined;
  method: HttpMethod;
  path: string;
  description: string;
  /** The tool's parameters: one object with a property per argument. */
  parameters: JsonSchema;
  targets: ArgumentTarget[];
  /** The media type of the request body, when there is one. */
  bodyMediaType: string | undefined;
  security: SecurityRequirement[];
  servers: ServerObject[];
  deprecated: boolean;
}

const MAX_NAME = 60;
const BODY_TYPES = [
  /^application\/(.+\+)?json$/,
  /^application\/x-www-form-urlencoded$/,
  /^multipart\/form-data$/,
  /^text\/plain$/,
];

/** Every operation of `document`, in the order of its paths and of the HTTP methods. */
export function operationsOf(document: OpenApiDocument): OperationSpec[] {
  const specs: OperationSpec[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = mergeParameters(item.parameters ?? [], operation.parameters ?? []);
      const targets: ArgumentTarget[] = [];
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      const taken = new Set<string>();
      const argumentName = (name: string, where: string): string => {
        let candidate = snakeCase(name) || where;
        if (taken.has(candidate)) candidate = `${candidate}_${where}`;
        taken.add(candidate);
        return candidate;
      };
      for (const parameter of parameters) {
        const argument = argumentName(parameter.name, parameter.in);
        const schema = modelSchema(parameter.schema ?? firstContentSchema(parameter.content));
        if (parameter.description && schema.description === undefined) {
          schema.description = parameter.description;
        }
        properties[argument] = schema;
        if (parameter.required || parameter.in === 'path') required.push(argument);
        targets.push({
          argument,
          in: parameter.in,
          name: parameter.name,
          ...(parameter.style === undefined ? {} : { style: parameter.style }),
          ...(parameter.explode === undefined ? {} : { explode: parameter.explode }),
        });
      }
      const body = requestBody(operation.requestBody?.content);
      if (body) {
        const schema = modelSchema(body.schema);
        const bodyRequired = operation.requestBody?.required === true;
        const flatten =
          body.mediaType !== 'text/plain' &&
          schema.properties !== undefined &&
          schema.type !== 'array' &&
          !schema.anyOf &&
          !schema.oneOf;
        if (flatten) {
          const inner = schema.properties as Record<string, JsonSchema>;
          const innerRequired = new Set((schema.required as string[] | undefined) ?? []);
          for (const [name, property] of Object.entries(inner)) {
            const argument = argumentName(name, 'body');
            properties[argument] = property;
            if (bodyRequired && innerRequired.has(name)) required.push(argument);
            targets.push({ argument, in: 'body-property', name });
          }
        } else {
          const argument = argumentName('body', 'body');
          if (operation.requestBody?.description && schema.description === undefined) {
            schema.description = operation.requestBody.description;
          }
          properties[argument] = schema;
          if (bodyRequired) required.push(argument);
          targets.push({ argument, in: 'body', name: 'body' });
        }
      }
      const toolName = snakeCase(operation.operationId ?? `${method}_${path}`).slice(0, MAX_NAME);
      specs.push({
        toolName,
        operationId: operation.operationId,
        method,
        path,
        description: describe(operation.summary, operation.description, method, path),
        parameters: {
          type: 'object',
          properties,
          ...(required.length > 0 ? { required } : {}),
        },
        targets,
        bodyMediaType: body?.mediaType,
        security: operation.security ?? document.security ?? [],
        servers: nonEmpty(operation.servers) ??
          nonEmpty(item.servers) ??
          nonEmpty(document.servers) ?? [{ url: '/' }],
        deprecated: operation.deprecated === true,
      });
    }
  }
  return specs;
}

/** Path-level parameters, overridden by operation-level ones of the same name and location. */
function mergeParameters(
  pathLevel: readonly ParameterObject[],
  operationLevel: readonly ParameterObject[],
): ParameterObject[] {
  const merged = new Map<string, ParameterObject>();
  for (const parameter of [...pathLevel, ...operationLevel]) {
    merged.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...merged.values()];
}

function requestBody(
  content: Record<string, { schema?: SchemaObject }> | undefined,
): { mediaType: string; schema: SchemaObject | undefined } | undefined {
  if (!content) return undefined;
  for (const pattern of BODY_TYPES) {
    for (const [mediaType, media] of Object.entries(content)) {
      if (pattern.test(mediaType.split(';')[0]!.trim().toLowerCase())) {
        return { mediaType: mediaType.split(';')[0]!.trim().toLowerCase(), schema: media.schema };
      }
    }
  }
  const [first] = Object.entries(content);
  return first && { mediaType: first[0], schema: first[1].schema };
}

function firstContentSchema(
  content: Record<string, { schema?: SchemaObject }> | undefined,
): SchemaObject | undefined {
  return content ? Object.values(content)[0]?.schema : undefined;
}

function nonEmpty<T>(list: T[] | undefined): T[] | undefined {
  return list && list.length > 0 ? list : undefined;
}

function describe(
  summary: string | undefined,
  description: string | undefined,
  method: string,
  path: string,
): string {
  const parts = [summary, description].filter((text): text is string => !!text?.trim());
  const text =
    parts.length === 2 && parts[1]!.startsWith(parts[0]!) ? parts[1]! : parts.join('\n\n');
  return text || `${method.toUpperCase()} ${path}`;
}

/** `getPetById` -> `get_pet_by_id`; `GET /pets/{id}` -> `get_pets_id`. */
export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}
