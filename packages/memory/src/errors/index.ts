export { UnsupportedMemoryDialectError } from './unsupported-dialect-error';
