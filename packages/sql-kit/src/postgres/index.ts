export { checkSchemaOption } from './check-schema-option';
export { createSchemaIfMissing } from './create-schema-if-missing';
