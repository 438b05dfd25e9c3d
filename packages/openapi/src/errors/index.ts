export { OpenApiSpecError } from './openapi-spec-error';
