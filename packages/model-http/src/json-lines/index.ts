export { parseJsonLines } from './parse-json-lines';
