import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ProviderTool, type LlmAgent } from '@adk/core';
import { afterAll, describe, expect, it } from 'vitest';

import { AgentConfigError, loadAgentConfig } from '../src';

const dir = mkdtempSync(join(tmpdir(), 'adk-agent-config-provider-tools-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, yaml: string): string {
  const file = join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

describe("Python's provider-side tools by name", () => {
  it('google_search and url_context become provider tools', async () => {
    const file = write(
      'search.yaml',
      [
        'agent_class: LlmAgent',
        'name: searcher',
        'model: gemini-2.5-flash',
        'instruction: Search the web.',
        'tools:',
        '  - name: google_search',
        '  - name: url_context',
        '',
      ].join('\n'),
    );
    const agent = (await loadAgentConfig(file)) as LlmAgent;
    expect(agent.tools.map((tool) => (ProviderTool.isInstance(tool) ? tool.spec : tool))).toEqual([
      { type: 'webSearch' },
      { type: 'urlContext' },
    ]);
  });

  it('the others are refused with a typed error', async () => {
    const file = write(
      'maps.yaml',
      'agent_class: LlmAgent\nname: mapper\nmodel: gemini-2.5-flash\ntools:\n  - name: google_maps_grounding\n',
    );
    await expect(loadAgentConfig(file)).rejects.toSatisfy((error) =>
      AgentConfigError.isInstance(error),
    );
  });
});
