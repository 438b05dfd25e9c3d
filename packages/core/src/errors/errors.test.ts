import { describe, expect, it } from 'vitest';

import { AdkError } from './adk-error';
import { AgentTreeError } from './agent-tree-error';
import { InvalidEventError } from './invalid-event-error';
import { LiveConnectionLostError } from './live-connection-lost-error';
import { LiveNotSupportedError } from './live-not-supported-error';
import { MaxLlmCallsExceededError } from './max-llm-calls-exceeded-error';
import { ModelNotFoundError } from './model-not-found-error';
import { OutputValidationError } from './output-validation-error';
import { PluginError } from './plugin-error';
import { ServiceNotConfiguredError } from './service-not-configured-error';
import { TemplateVariableError } from './template-variable-error';
import { ToolArgumentsError } from './tool-arguments-error';
import { ToolExecutionError } from './tool-execution-error';
import { ToolNotFoundError } from './tool-not-found-error';

describe('runtime errors', () => {
  const cases = [
    [new AgentTreeError({ agentName: 'a', message: 'm' }), AgentTreeError, 'INVALID_AGENT_TREE'],
    [
      new InvalidEventError({ field: 'actions.stateDelta', message: 'bad' }),
      InvalidEventError,
      'INVALID_EVENT',
    ],
    [
      new MaxLlmCallsExceededError({ limit: 3 }),
      MaxLlmCallsExceededError,
      'MAX_LLM_CALLS_EXCEEDED',
    ],
    [
      new ModelNotFoundError({ modelName: 'x', registeredPatterns: [] }),
      ModelNotFoundError,
      'MODEL_NOT_FOUND',
    ],
    [
      new OutputValidationError({ agentName: 'a', issues: ['x'] }),
      OutputValidationError,
      'OUTPUT_VALIDATION_FAILED',
    ],
    [new PluginError({ pluginName: 'p', hook: 'beforeRun' }), PluginError, 'PLUGIN_ERROR'],
    [
      new LiveNotSupportedError({ agentName: 'a', model: 'm' }),
      LiveNotSupportedError,
      'LIVE_NOT_SUPPORTED',
    ],
    [new LiveConnectionLostError({ attempts: 3 }), LiveConnectionLostError, 'LIVE_CONNECTION_LOST'],
    [
      new ServiceNotConfiguredError({ service: 'memoryService' }),
      ServiceNotConfiguredError,
      'SERVICE_NOT_CONFIGURED',
    ],
    [
      new TemplateVariableError({ variable: 'x' }),
      TemplateVariableError,
      'TEMPLATE_VARIABLE_MISSING',
    ],
    [
      new ToolArgumentsError({ toolName: 't', issues: [] }),
      ToolArgumentsError,
      'INVALID_TOOL_ARGUMENTS',
    ],
    [new ToolExecutionError({ toolName: 't' }), ToolExecutionError, 'TOOL_EXECUTION_FAILED'],
    [
      new ToolNotFoundError({ toolName: 't', availableTools: [] }),
      ToolNotFoundError,
      'TOOL_NOT_FOUND',
    ],
  ] as const;

  it.each(cases)('%s has a stable name, code and cross-copy isInstance', (error, cls, code) => {
    expect(error.code).toBe(code);
    expect(error.name).toBe(cls.name);
    expect(cls.isInstance(error)).toBe(true);
    expect(AdkError.isInstance(error)).toBe(true);
    // Another class's check must not accept it.
    const other = cls === ToolNotFoundError ? PluginError : ToolNotFoundError;
    expect(other.isInstance(error)).toBe(false);
  });

  it('messages carry the details a user needs', () => {
    expect(
      new ModelNotFoundError({ modelName: 'gpt-9', registeredPatterns: ['gemini-*', '/^claude-/'] })
        .message,
    ).toContain('gemini-*, /^claude-/');
    expect(
      new ToolNotFoundError({ toolName: 'nope', availableTools: ['a', 'b'] }).message,
    ).toContain('a, b');
    expect(
      new ToolArgumentsError({ toolName: 't', issues: [{ path: 'city', message: 'Required' }] })
        .message,
    ).toContain('city: Required');
    const cause = new TypeError('boom');
    const plugin = new PluginError({ pluginName: 'audit', hook: 'beforeTool', cause });
    expect(plugin.message).toContain('audit');
    expect(plugin.message).toContain('beforeTool');
    expect(plugin.message).toContain('boom');
    expect(plugin.cause).toBe(cause);
  });
});
