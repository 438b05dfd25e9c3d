export { ContentBuilder } from './content-builder';
