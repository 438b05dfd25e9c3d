export {
  InvocationContext,
  type AgentNode,
  type InvocationContextInit,
} from './invocation-context';
export { newSpanId } from './span-id';
