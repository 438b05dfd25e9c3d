import { describe, expect, it } from 'vitest';

import { compileInstruction } from './compile-instruction';
import { transferInstruction } from './transfer-instruction';

describe('compileInstruction', () => {
  it('assembles every section in the documented order', () => {
    const compiled = compileInstruction({
      agentName: 'weather',
      description: 'Handles weather questions.',
      globalInstruction: { text: 'Be polite.', dynamic: false },
      instruction: { text: 'The user is in Paris.', dynamic: true },
      outputSchema: { type: 'object', properties: { city: { type: 'string' } } },
      transferTargets: [{ name: 'router', description: 'Routes requests', relation: 'parent' }],
      additions: ['Memory: none.'],
    });
    // The dynamic instruction comes after every static section: the static ones are a prefix.
    expect(compiled.text).toBe(
      [
        'Be polite.',
        'You are weather. Handles weather questions.',
        'Reply with valid JSON matching this schema: {"type":"object","properties":{"city":{"type":"string"}}}',
        'You can delegate tasks to the following agents using the transfer_to_agent tool:\n' +
          '- router (your parent agent): Routes requests\n' +
          "To transfer to an agent, call the transfer_to_agent tool with the agent's name.",
        'Memory: none.',
        'The user is in Paris.',
      ].join('\n\n'),
    );
    expect(compiled.text.startsWith(compiled.static)).toBe(true);
    expect(compiled.sections.map((s) => s.kind)).toEqual([
      'global',
      'identity',
      'instruction',
      'output-schema',
      'transfer',
      'addition',
    ]);
  });

  it('splits static and dynamic sections, each in order', () => {
    const compiled = compileInstruction({
      agentName: 'bot',
      globalInstruction: { text: 'Today is Monday.', dynamic: true },
      instruction: { text: 'Answer briefly.', dynamic: false },
      transferTargets: [{ name: 'helper', relation: 'sub-agent' }],
    });
    expect(compiled.dynamic).toBe('Today is Monday.');
    expect(compiled.static).toBe(
      'You are bot.\n\nAnswer briefly.\n\nYou can delegate tasks to the following agents using the transfer_to_agent tool:\n- helper\n' +
        "To transfer to an agent, call the transfer_to_agent tool with the agent's name.",
    );
  });

  it('skips empty and whitespace-only sources', () => {
    const compiled = compileInstruction({
      agentName: 'bot',
      globalInstruction: { text: '  ', dynamic: false },
      instruction: { text: '', dynamic: true },
      transferTargets: [],
      additions: [''],
    });
    expect(compiled.text).toBe('You are bot.');
    expect(compiled.dynamic).toBe('');
    expect(compiled.sections).toHaveLength(1);
  });
});

describe('transferInstruction', () => {
  it('is empty without targets and lists each target otherwise', () => {
    expect(transferInstruction([])).toBe('');
    expect(
      transferInstruction([
        {
          name: 'weather',
          description: 'Handles weather-related questions',
          relation: 'sub-agent',
        },
        { name: 'news', description: ' Handles news ', relation: 'peer' },
      ]).split('\n'),
    ).toEqual([
      'You can delegate tasks to the following agents using the transfer_to_agent tool:',
      '- weather: Handles weather-related questions',
      '- news: Handles news',
      "To transfer to an agent, call the transfer_to_agent tool with the agent's name.",
    ]);
  });
});
