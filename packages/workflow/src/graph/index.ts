export { buildWorkflowGraph, type GraphDefinition } from './build-graph';
export { DEFAULT_ROUTE, ERROR_ROUTE, START, START_NAME, type Start } from './constants';
export type { ChainStep, Edge, EdgeItem, RouteMap } from './edge';
export { findUnconditionalCycle } from './find-cycle';
export { schemaMismatch } from './schema-compatibility';
export type { GraphEdge, WorkflowGraph } from './workflow-graph';
