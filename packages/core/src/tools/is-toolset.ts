import type { Tool, Toolset } from './tool';

/** True when `value` is a {@link Toolset} (it has `getTools`) rather than a single tool. */
export function isToolset(value: Tool | Toolset): value is Toolset {
  return typeof (value as Partial<Toolset>).getTools === 'function';
}
