export type { Tool, Toolset } from './tool';
