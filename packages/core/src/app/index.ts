export { App, isApp, type AppOptions } from './app';
